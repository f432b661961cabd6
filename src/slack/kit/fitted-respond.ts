/**
 * Wraps Bolt's respond() (a POST to the response_url) so that every reply is fitted to
 * Slack's limits first and goes out with blocks and its text fallback, ephemeral unless
 * the reply asks otherwise. A reply that cannot be delivered (the response_url expired or
 * was used 5 times: Bolt throws RespondError) becomes a ReplyDeliveryError, so the caller
 * does not try to deliver an error message down the same dead URL.
 *
 * A reply holding Slack's own table block that Slack refuses (HTTP 400: `invalid_blocks`
 * from a workspace or client without it) goes out once more with its tables as text
 * (views/tables-as-text.ts): the reader gets the same rows either way.
 */
import type { RespondArguments, RespondFn } from '@slack/bolt';
import { fitMessage } from '../../messages/block-kit-limits.js';
import type { Reply } from '../../messages/reply.js';
import { hasNativeTable, tablesAsText } from '../views/tables-as-text.js';

export class ReplyDeliveryError extends Error {
  readonly code = 'slack_reply_undeliverable';
  constructor(cause: unknown) {
    super(`Could not post to the response_url: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'ReplyDeliveryError';
  }
}

function respondArgs(reply: Reply): RespondArguments {
  const fitted = fitMessage(reply);
  return {
    text: fitted.text,
    blocks: fitted.blocks,
    response_type: fitted.responseType ?? 'ephemeral',
    ...(fitted.replaceOriginal !== undefined ? { replace_original: fitted.replaceOriginal } : {}),
  };
}

/** Slack refused the blocks themselves (a 400), not the URL (404: expired, used). */
const refusedBlocks = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { statusCode?: unknown }).statusCode === 400;

export function fittedRespond(respond: RespondFn): (reply: Reply) => Promise<void> {
  return async (reply) => {
    try {
      await respond(respondArgs(reply));
    } catch (err) {
      if (!(refusedBlocks(err) && hasNativeTable(reply.blocks))) throw new ReplyDeliveryError(err);
      try {
        await respond(respondArgs(tablesAsText(reply)));
      } catch (again) {
        throw new ReplyDeliveryError(again);
      }
    }
  };
}
