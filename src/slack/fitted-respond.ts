/**
 * Wraps Bolt's respond() (a POST to the response_url) so that every reply is fitted to
 * Slack's limits first and goes out with blocks and its text fallback, ephemeral unless
 * the reply asks otherwise. A reply that cannot be delivered (the response_url expired or
 * was used 5 times: Bolt throws RespondError) becomes a ReplyDeliveryError, so the caller
 * does not try to deliver an error message down the same dead URL.
 */
import type { RespondArguments, RespondFn } from '@slack/bolt';
import { fitMessage } from '../messages/block-kit-limits.js';
import type { Reply } from '../messages/reply.js';

export class ReplyDeliveryError extends Error {
  readonly code = 'slack_reply_undeliverable';
  constructor(cause: unknown) {
    super(`Could not post to the response_url: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'ReplyDeliveryError';
  }
}

export function fittedRespond(respond: RespondFn): (reply: Reply) => Promise<void> {
  return async (reply) => {
    const fitted = fitMessage(reply);
    const args: RespondArguments = {
      text: fitted.text,
      blocks: fitted.blocks,
      response_type: fitted.responseType ?? 'ephemeral',
      ...(fitted.replaceOriginal !== undefined ? { replace_original: fitted.replaceOriginal } : {}),
    };
    try {
      await respond(args);
    } catch (err) {
      throw new ReplyDeliveryError(err);
    }
  };
}
