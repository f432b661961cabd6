/**
 * Slack's request signature and freshness, against our clock. Bolt's own check
 * (verifySlackRequest) refuses a timestamp more than 5 minutes in the past but accepts
 * any future one; Slack's rule is |now − timestamp| ≤ 5 min, so a request captured and
 * replayed later, or dated ahead to outlive the window, is refused both ways here.
 * https://docs.slack.dev/authentication/verifying-requests-from-slack
 */
import { verifySlackRequest } from '@slack/bolt';

const MAX_REQUEST_AGE_SEC = 5 * 60;

type SignatureCheck = { ok: true } | { ok: false; reason: string };

interface SignedRequest {
  signingSecret: string;
  rawBody: string;
  signature: string | undefined;
  timestamp: string | undefined;
  nowMs: number;
}

export function verifySignedRequest(r: SignedRequest): SignatureCheck {
  if (!r.signature || !r.timestamp || !/^\d{1,12}$/.test(r.timestamp))
    return { ok: false, reason: 'signature or timestamp header missing or malformed' };
  const timestampSec = Number(r.timestamp);
  const skewSec = Math.floor(r.nowMs / 1000) - timestampSec;
  if (Math.abs(skewSec) > MAX_REQUEST_AGE_SEC)
    return { ok: false, reason: `timestamp ${skewSec > 0 ? 'too old' : 'in the future'} (${skewSec} s)` };
  try {
    verifySlackRequest({
      signingSecret: r.signingSecret,
      body: r.rawBody,
      headers: { 'x-slack-signature': r.signature, 'x-slack-request-timestamp': timestampSec },
      nowMilliseconds: r.nowMs,
    });
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : 'signature mismatch' };
  }
}
