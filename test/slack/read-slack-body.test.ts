import { describe, expect, it } from 'vitest';
import { FORM_CONTENT_TYPE, readSlackBody } from '../../src/slack/read-slack-body.js';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const command = (extra: Record<string, string> = {}) =>
  form({
    command: '/visibility',
    text: 'help',
    user_id: 'U1',
    channel_id: 'C1',
    team_id: 'T1',
    response_url: 'https://hooks.slack.com/commands/T1/1/abc',
    trigger_id: '123.456.abc',
    ...extra,
  });
const click = (extra: Record<string, unknown> = {}) => ({
  type: 'block_actions',
  user: { id: 'U1', team_id: 'T1' },
  team: { id: 'T1' },
  trigger_id: '9.9.x',
  container: { type: 'message', channel_id: 'C1' },
  channel: { id: 'C1' },
  response_url: 'https://hooks.slack.com/actions/T1/1/abc',
  actions: [{ action_id: 'vis:share', type: 'button', value: '{}' }],
  ...extra,
});
const interaction = (payload: unknown) =>
  readSlackBody(form({ payload: JSON.stringify(payload) }), FORM_CONTENT_TYPE);
const json = (body: unknown) => readSlackBody(JSON.stringify(body), 'application/json');

describe('readSlackBody', () => {
  it('accepts what Slack sends, keyed by what stays the same in a redelivery', () => {
    expect(readSlackBody(command(), FORM_CONTENT_TYPE)).toEqual({
      ok: true,
      kind: 'slash_command',
      requestKey: 'command:123.456.abc',
    });
    expect(interaction(click())).toEqual({
      ok: true,
      kind: 'block_actions',
      requestKey: 'block_actions:9.9.x',
    });
    expect(
      interaction(
        click({
          container: { type: 'view' },
          channel: undefined,
          response_url: undefined,
          view: { id: 'V1' },
        }),
      ),
    ).toMatchObject({ ok: true, kind: 'block_actions' });
    // Org-wide installs send team: null and name the team on the user.
    expect(interaction(click({ team: null }))).toMatchObject({ ok: true });
    expect(
      interaction({
        type: 'view_submission',
        user: { id: 'U1' },
        team: { id: 'T1' },
        trigger_id: '1.2.z',
        view: { id: 'V1', callback_id: 'x', state: { values: {} } },
      }),
    ).toEqual({ ok: true, kind: 'view_submission', requestKey: 'view_submission:1.2.z' });
    expect(
      json({
        type: 'event_callback',
        team_id: 'T1',
        event_id: 'Ev1',
        event: { type: 'app_home_opened', user: 'U1', tab: 'home' },
      }),
    ).toEqual({ ok: true, kind: 'event_callback', requestKey: 'event:Ev1' });
    expect(
      json({
        type: 'event_callback',
        team_id: 'T1',
        event_id: 'Ev4',
        event: {
          type: 'function_executed',
          function: { callback_id: 'list_lost_citations' },
          function_execution_id: 'Fx1',
          inputs: { brand: 'Acme' },
          bot_access_token: 'xwfp-1',
        },
      }),
    ).toEqual({ ok: true, kind: 'event_callback', requestKey: 'event:Ev4' });
    expect(json({ type: 'url_verification', challenge: 'c' })).toMatchObject({
      ok: true,
      requestKey: undefined,
    });
    expect(readSlackBody('ssl_check=1&token=x', FORM_CONTENT_TYPE)).toMatchObject({
      ok: true,
      kind: 'ssl_check',
    });
  });

  it('refuses malformed payloads with a reason that quotes no content', () => {
    const cases: Array<[string, ReturnType<typeof readSlackBody>]> = [
      ['payload=null', readSlackBody('payload=null', FORM_CONTENT_TYPE)],
      ['payload=[]', readSlackBody('payload=%5B%5D', FORM_CONTENT_TYPE)],
      ['payload=1', readSlackBody('payload=1', FORM_CONTENT_TYPE)],
      ['payload not JSON', readSlackBody('payload=%7Bnope', FORM_CONTENT_TYPE)],
      ['payload twice', readSlackBody('payload=%7B%7D&payload=%7B%7D', FORM_CONTENT_TYPE)],
      ['no user', interaction(click({ user: undefined }))],
      ['no team', interaction(click({ team: null, user: { id: 'U1' } }))],
      ['no channel', interaction(click({ channel: undefined }))],
      ['no response_url', interaction(click({ response_url: undefined }))],
      ['response_url not http', interaction(click({ response_url: 'file:///etc/passwd' }))],
      ['no actions', interaction(click({ actions: [] }))],
      ['unknown type', interaction(click({ type: 'workflow_step_edit' }))],
      ['command without user', readSlackBody(command({ user_id: '' }), FORM_CONTENT_TYPE)],
      ['command without response_url', readSlackBody(command({ response_url: 'x' }), FORM_CONTENT_TYPE)],
      ['JSON null', json(null)],
      ['event without id', json({ type: 'event_callback', team_id: 'T1', event: { type: 'x' } })],
      ['unknown event type', json({ type: 'app_rate_limited' })],
      [
        'home opened without user',
        json({
          type: 'event_callback',
          team_id: 'T1',
          event_id: 'Ev2',
          event: { type: 'app_home_opened', tab: 'home' },
        }),
      ],
      [
        'function_executed without its run token',
        json({
          type: 'event_callback',
          team_id: 'T1',
          event_id: 'Ev3',
          event: {
            type: 'function_executed',
            function: { callback_id: 'get_brand_visibility' },
            function_execution_id: 'Fx1',
            inputs: {},
          },
        }),
      ],
    ];
    for (const [name, result] of cases) {
      expect({ name, ok: result.ok }).toEqual({ name, ok: false });
      if (!result.ok) expect(result.reason).not.toContain('passwd');
    }
  });

  it('leaves a body that is not JSON at all to a 400, as Bolt did', () => {
    expect(readSlackBody('command=%2Fvisibility', 'text/plain')).toMatchObject({
      ok: false,
      unparseable: true,
    });
    expect(json(null)).not.toHaveProperty('unparseable');
  });
});

describe('readSlackBody: type-ahead options requests', () => {
  const suggestion = (extra: Record<string, unknown> = {}) => ({
    type: 'block_suggestion',
    user: { id: 'U1', team_id: 'T1' },
    team: { id: 'T1' },
    action_id: 'vis:brand-select',
    block_id: 'brand',
    value: 'acm',
    container: { type: 'view', view_id: 'V1' },
    ...extra,
  });

  it('accepts a block_suggestion, typed text or none, with nothing to dedupe', () => {
    expect(interaction(suggestion())).toEqual({ ok: true, kind: 'block_suggestion', requestKey: undefined });
    expect(interaction(suggestion({ value: '' }))).toMatchObject({ ok: true });
  });

  it('refuses one without the select it is for or what was typed', () => {
    expect(interaction(suggestion({ action_id: undefined }))).toMatchObject({ ok: false });
    expect(interaction(suggestion({ value: undefined }))).toMatchObject({ ok: false });
    expect(interaction(suggestion({ container: undefined }))).toMatchObject({ ok: false });
  });
});
