/**
 * The message a content-ideas refresh owns: first "generating" (or "already generating":
 * no second job was started, docs/api.md §3), then replaced in place by the fresh top ideas
 * when `meta.generation_status` leaves `generating`, or by a "still running" note when the
 * bot stops watching.
 *
 * While it waits it carries *Check now* (vis:ideas:check, value {brandId, limit}): the
 * watch runs in the process that took the command, and a replica can be stopped or
 * replaced mid-watch; the button lets whichever replica Slack reaches finish the message.
 */

import type { ContentIdeasResponse, RefreshIdeasResult } from '../../../api/schemas/index.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn, slackDate } from '../../../messages/mrkdwn.js';
import { plainServiceText } from '../../../messages/plain-service-text.js';
import type { Reply } from '../../../messages/reply.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import { brandButton } from '../../views/brand-button.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText } from '../../views/link-or-text.js';
import { ideasCommandText } from './ideas-page.js';
import { ideasReply } from './ideas-view.js';

interface BrandRef {
  id: string;
  name: string;
}

const nameOf = (brand: BrandRef) => escapeMrkdwn(truncatePlain(brand.name, 100));

export const IDEAS_CHECK_ACTION = 'vis:ideas:check';

/** *Check now*: any replica looks at the generation and finishes this message if it is over. */
function checkNowBlock(brand: BrandRef, limit: number): KnownBlock {
  return {
    type: 'actions',
    block_id: IDEAS_CHECK_ACTION,
    elements: [
      {
        ...brandButton(mrkdwn`Check now`, IDEAS_CHECK_ACTION, { brandId: brand.id }),
        // The page size as a number, as the Previous/Next buttons carry it.
        value: JSON.stringify({ brandId: brand.id, limit }),
      },
    ],
  };
}

function minutes(ms: number): Mrkdwn {
  if (ms < 60_000) return mrkdwn`${Math.max(1, Math.round(ms / 1000))} s`;
  const m = Math.round(ms / 60_000);
  return mrkdwn`${m} minute${m === 1 ? mrkdwn`` : mrkdwn`s`}`;
}

export function ideasRefreshStartedReply(brand: BrandRef, result: RefreshIdeasResult, limit: number): Reply {
  const already = result.status === 'already_generating';
  const lead = already
    ? mrkdwn`:hourglass_flowing_sand: Content ideas for *${nameOf(brand)}* are already being generated; no second job was started.`
    : mrkdwn`:hourglass_flowing_sand: Generating fresh content ideas for *${nameOf(brand)}*…`;
  // The service's note is written for developers (it names response fields and paths).
  const said = result.message ? plainServiceText(truncatePlain(result.message, 300)) : undefined;
  const service = said ? mrkdwn`\n_The service says: ${said}_` : mrkdwn``;
  const text = mrkdwn`${lead}${service}\nThis message will show the new top ideas when they are ready; *Check now* looks at once.`;
  return {
    text: fallbackText(
      already
        ? mrkdwn`Content ideas for ${escapeMrkdwn(brand.name)} are already being generated; no second job was started.`
        : mrkdwn`Generating fresh content ideas for ${escapeMrkdwn(brand.name)}.`,
    ),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }, checkNowBlock(brand, limit)],
  };
}

/** *Check now* found the generation still running: the same message, saying when it looked. */
export function ideasRefreshCheckedReply(brand: BrandRef, checkedAtMs: number, limit: number): Reply {
  const text = mrkdwn`:hourglass_flowing_sand: Content ideas for *${nameOf(brand)}* are still being generated (checked ${slackDate(checkedAtMs)}). *Check now* looks again.`;
  return {
    text: fallbackText(mrkdwn`Content ideas for ${escapeMrkdwn(brand.name)} are still being generated.`),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }, checkNowBlock(brand, limit)],
    replaceOriginal: true,
  };
}

/**
 * Generation ended: the fresh top ideas, replacing the "generating" message, with Share:
 * the same first page of active ideas, for the channel.
 */
export function ideasRefreshDoneReply(brand: BrandRef, response: ContentIdeasResponse, limit: number): Reply {
  const status = response.meta?.generation_status ?? 'completed';
  const intro =
    status === 'completed'
      ? mrkdwn`:sparkles: Fresh content ideas for *${nameOf(brand)}* are ready.`
      : mrkdwn`Generation for *${nameOf(brand)}* ended with status \`${inlineText(status, 40)}\`. These are the current ideas.`;
  const reply = ideasReply({ brand, status: 'active', offset: 0, limit, response, intro });
  const shareable = withShareButton(
    reply,
    ideasCommandText(brand.id, { status: 'active', offset: 0, limit }),
  );
  return {
    ...shareable,
    text: fallbackText(
      mrkdwn`${status === 'completed' ? mrkdwn`Fresh content ideas are ready` : mrkdwn`Generation ended (${escapeMrkdwn(status)})`}. ${reply.text}`,
    ),
    replaceOriginal: true,
  };
}

export function ideasRefreshStillRunningReply(brand: BrandRef, watchedMs: number, limit: number): Reply {
  const text = mrkdwn`:hourglass: Content ideas for *${nameOf(brand)}* are still being generated after ${minutes(watchedMs)}. I stopped watching; *Check now* in a while, or run \`/visibility ideas "${nameOf(brand)}"\`.`;
  return {
    text: fallbackText(
      mrkdwn`Content ideas for ${escapeMrkdwn(brand.name)} are still being generated after ${minutes(watchedMs)}.`,
    ),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }, checkNowBlock(brand, limit)],
    replaceOriginal: true,
  };
}
