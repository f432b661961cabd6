/**
 * The message a content-ideas refresh owns: first "generating" (or "already generating":
 * no second job was started, API.md §3), then replaced in place by the fresh top ideas
 * when `meta.generation_status` leaves `generating`, or by a "still running" note when the
 * bot stops watching.
 */

import type { ContentIdeasResponse, RefreshIdeasResult } from '../../api/schemas/index.js';
import type { Reply } from '../reply.js';
import { fallbackText } from './fallback-text.js';
import { ideasReply } from './ideas-view.js';
import { inlineText } from './link-or-text.js';
import { escapeMrkdwn } from './mrkdwn.js';
import { truncatePlain } from './truncate-mrkdwn.js';

interface BrandRef {
  id: string;
  name: string;
}

const nameOf = (brand: BrandRef) => escapeMrkdwn(truncatePlain(brand.name, 100));

function minutes(ms: number): string {
  if (ms < 60_000) return `${Math.max(1, Math.round(ms / 1000))} s`;
  const m = Math.round(ms / 60_000);
  return `${m} minute${m === 1 ? '' : 's'}`;
}

export function ideasRefreshStartedReply(brand: BrandRef, result: RefreshIdeasResult): Reply {
  const already = result.status === 'already_generating';
  const lead = already
    ? `:hourglass_flowing_sand: Content ideas for *${nameOf(brand)}* are already being generated; no second job was started.`
    : `:hourglass_flowing_sand: Generating fresh content ideas for *${nameOf(brand)}*…`;
  const service = result.message ? `\n_The service says: ${inlineText(result.message, 300)}_` : '';
  const text = `${lead}${service}\nThis message will show the new top ideas when they are ready.`;
  return {
    text: fallbackText(
      already
        ? `Content ideas for ${brand.name} are already being generated; no second job was started.`
        : `Generating fresh content ideas for ${brand.name}.`,
    ),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
  };
}

/** Generation ended: the fresh top ideas, replacing the "generating" message. */
export function ideasRefreshDoneReply(brand: BrandRef, response: ContentIdeasResponse, limit: number): Reply {
  const status = response.meta?.generation_status ?? 'completed';
  const intro =
    status === 'completed'
      ? `:sparkles: Fresh content ideas for *${nameOf(brand)}* are ready.`
      : `Generation for *${nameOf(brand)}* ended with status \`${inlineText(status, 40)}\`. These are the current ideas.`;
  const reply = ideasReply({ brand, status: 'active', offset: 0, limit, response, intro });
  return {
    ...reply,
    text: fallbackText(
      `${status === 'completed' ? 'Fresh content ideas are ready' : `Generation ended (${status})`}. ${reply.text}`,
    ),
    replaceOriginal: true,
  };
}

export function ideasRefreshStillRunningReply(brand: BrandRef, watchedMs: number): Reply {
  const text = `:hourglass: Content ideas for *${nameOf(brand)}* are still being generated after ${minutes(watchedMs)}. I stopped watching; run \`/visibility ideas "${nameOf(brand)}"\` in a while to see them.`;
  return {
    text: fallbackText(
      `Content ideas for ${brand.name} are still being generated after ${minutes(watchedMs)}.`,
    ),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
    replaceOriginal: true,
  };
}
