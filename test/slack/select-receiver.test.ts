import { describe, expect, it } from 'vitest';
import { selectReceiver } from '../../src/slack/select-receiver.js';

describe('selectReceiver', () => {
  it('chooses HTTP mode with a signing secret', () => {
    expect(selectReceiver({ slackSigningSecret: 'secret-123456', slackAppToken: undefined })).toEqual({
      mode: 'http',
      signingSecret: 'secret-123456',
    });
  });

  it('chooses Socket Mode when SLACK_APP_TOKEN is set, even beside a signing secret', () => {
    expect(selectReceiver({ slackSigningSecret: undefined, slackAppToken: 'xapp-1-A1-abc' })).toEqual({
      mode: 'socket',
      appToken: 'xapp-1-A1-abc',
    });
    expect(selectReceiver({ slackSigningSecret: 'secret-123456', slackAppToken: 'xapp-1-A1-abc' }).mode).toBe(
      'socket',
    );
  });

  it('says what to set when neither is there', () => {
    expect(() => selectReceiver({ slackSigningSecret: undefined, slackAppToken: undefined })).toThrow(
      /SLACK_SIGNING_SECRET.*SLACK_APP_TOKEN/,
    );
  });
});
