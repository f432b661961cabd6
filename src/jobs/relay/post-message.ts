import type { OutboxMessage } from '../../store/outbox-repo.js';
import type { PostContent } from '../outbox-chart-images.js';
import { outboxMetadata } from '../outbox-metadata.js';
import type { RelayContext } from './relay-context.js';

/**
 * Posts `content` for the row, its dedupe key in the message metadata (what the history
 * check looks for), and returns the message's ts. The relay's WebClient must not retry
 * (webClientOptions 'outbox'): a client retry of a post whose answer was lost would post
 * it twice without that check.
 */
export async function postMessage(
  ctx: RelayContext,
  row: OutboxMessage,
  content: PostContent,
): Promise<string> {
  try {
    const res = await ctx.web().chat.postMessage({
      channel: row.channelId,
      text: content.text,
      ...(content.blocks && content.blocks.length > 0 ? { blocks: content.blocks as never } : {}),
      metadata: outboxMetadata(row) as never,
      // Alerts name URLs; unfurled previews would bury the message.
      unfurl_links: false,
      unfurl_media: false,
    });
    if (!res.ts) throw new Error('chat.postMessage answered ok without a ts');
    return res.ts;
  } finally {
    // Recorded in the background, off the delivery's path (a round trip per post on
    // Postgres): this relay holds the channel back from memory meanwhile, and the others
    // by the reservation taken before the call.
    void ctx.pacer.called(row.channelId, ctx.clock.now());
  }
}
