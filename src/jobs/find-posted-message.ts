/**
 * Looks for a message the bot already posted, by the dedupe key in its metadata
 * (`include_all_metadata`), from a little before the outbox row was created: the row
 * cannot have been posted before it existed, and the margin covers clock skew between us
 * and Slack. Pages through the history until the key is found or the window is exhausted.
 */
import type { WebClient } from '@slack/web-api';
import { carriesKey } from './outbox-metadata.js';

interface FindPostedOptions {
  channel: string;
  dedupeKey: string;
  /** Only messages after this (epoch ms) are searched. */
  oldestMs: number;
  /** Messages per page (Slack allows up to 999; 200 keeps answers small). */
  pageSize?: number;
  /** Pages read at most; a busy channel past that is treated as "not found". */
  maxPages?: number;
}

/** The ts of the message carrying `dedupeKey`, or null. Slack errors are thrown. */
export async function findPostedMessage(web: WebClient, o: FindPostedOptions): Promise<string | null> {
  const oldest = (Math.max(0, o.oldestMs) / 1000).toFixed(6);
  let cursor: string | undefined;
  for (let page = 0; page < (o.maxPages ?? 10); page += 1) {
    const res = await web.conversations.history({
      channel: o.channel,
      oldest,
      include_all_metadata: true,
      limit: o.pageSize ?? 200,
      ...(cursor ? { cursor } : {}),
    });
    const hit = (res.messages ?? []).find((m) => carriesKey(m, o.dedupeKey));
    if (hit?.ts) return hit.ts;
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!res.has_more || !cursor) return null;
  }
  return null;
}
