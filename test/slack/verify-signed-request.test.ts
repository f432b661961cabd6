import { describe, expect, it } from 'vitest';
import { signSlackRequest } from '../../src/dev/local-slack/sign-request.js';
import { verifySignedRequest } from '../../src/slack/verify-signed-request.js';

const secret = 'shhh-signing-secret';
const nowMs = Date.parse('2026-03-01T12:00:00Z');
const nowSec = nowMs / 1000;
const body = 'command=%2Fvisibility&text=help';

function check(timestampSec: number, o: { secret?: string; body?: string } = {}) {
  const signed = signSlackRequest(o.secret ?? secret, body, timestampSec);
  return verifySignedRequest({ signingSecret: secret, rawBody: o.body ?? body, ...signed, nowMs });
}

describe('verifySignedRequest', () => {
  it('accepts a correct signature up to 5 minutes either side of our clock', () => {
    for (const offset of [0, 300, -300, 299, -299])
      expect({ offset, ...check(nowSec + offset) }).toEqual({ offset, ok: true });
  });

  it('refuses a timestamp more than 5 minutes in the past or the future', () => {
    expect(check(nowSec + 301)).toEqual({ ok: false, reason: 'timestamp in the future (-301 s)' });
    expect(check(nowSec - 301)).toEqual({ ok: false, reason: 'timestamp too old (301 s)' });
    expect(check(nowSec + 6 * 60).ok).toBe(false);
  });

  it('refuses a wrong secret, a changed body and missing or odd headers', () => {
    expect(check(nowSec, { secret: 'other' }).ok).toBe(false);
    expect(check(nowSec, { body: `${body}&x=1` }).ok).toBe(false);
    const base = { signingSecret: secret, rawBody: body, nowMs };
    expect(verifySignedRequest({ ...base, signature: undefined, timestamp: String(nowSec) }).ok).toBe(false);
    expect(verifySignedRequest({ ...base, signature: 'v0=00', timestamp: undefined }).ok).toBe(false);
    expect(verifySignedRequest({ ...base, signature: 'v0=00', timestamp: '1e9' }).ok).toBe(false);
    const signed = signSlackRequest(secret, body, nowSec);
    expect(
      verifySignedRequest({ ...base, ...signed, signature: signed.signature.replace('v0', 'v1') }).ok,
    ).toBe(false);
  });
});
