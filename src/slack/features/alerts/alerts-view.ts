/**
 * `/visibility alerts`: a brand's alert messages of the last days, newest first, each
 * linked to its message, with its state in words (open or resolved, by whom), its owner,
 * and how long it took to be acknowledged and resolved. Ten per page, Previous/Next.
 */
import { formatDuration } from '../../../alerts/parse-duration.js';
import { counted } from '../../../figures/plural.js';
import { quotedNote } from '../../../messages/alert-state-blocks.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import {
  channelMention,
  escapeMrkdwn,
  joinMrkdwn,
  type Mrkdwn,
  mrkdwn,
  mrkdwnLink,
  slackDate,
  userMention,
} from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import type { AlertState, AlertStateFilter } from '../../../store/alert-states-repo.js';
import { contextBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { offsetPagingBlock } from '../../views/paging-buttons.js';

export const ALERTS_PAGE_ACTION = 'vis:alerts:page';
export const ALERTS_PAGE_SIZE = 10;
export const ALERT_FILTERS: readonly AlertStateFilter[] = ['open', 'resolved', 'all'];

/** What the Previous/Next buttons carry to show another page. */
export interface AlertsPageValue {
  brandId: string;
  filter: AlertStateFilter;
  days: number;
  offset: number;
}

interface AlertsViewInput extends AlertsPageValue {
  brandName: string;
  states: readonly AlertState[];
  total: number;
}

/** The header as posted, as text again (it was escaped for Slack when posted). */
const unescaped = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

function title(s: AlertState): Mrkdwn {
  const text = unescaped(s.headline) || 'Alert';
  return s.permalink ? mrkdwn`*${mrkdwnLink(s.permalink, text)}*` : mrkdwn`*${escapeMrkdwn(text)}*`;
}

/** "open, assigned to @maya" or "resolved by @sam on …: “note”". */
function stateLine(s: AlertState): Mrkdwn {
  const owner = s.assigneeId ? mrkdwn`owner ${userMention(s.assigneeId)}` : mrkdwn`no owner`;
  const status =
    s.resolvedAtMs !== null && s.resolvedBy
      ? mrkdwn`:white_check_mark: Resolved by ${userMention(s.resolvedBy)} ${slackDate(s.resolvedAtMs)}`
      : mrkdwn`:red_circle: Open`;
  return mrkdwn`${status} · ${owner}`;
}

/** A wait in words; under a minute is said so rather than "0 minutes". */
const waited = (ms: number): Mrkdwn =>
  ms < 60_000 ? mrkdwn`under a minute` : escapeMrkdwn(formatDuration(ms));

/** Time to acknowledge and to resolve, from when the message was posted. */
function timesLine(s: AlertState): Mrkdwn {
  const parts: Mrkdwn[] = [mrkdwn`posted ${slackDate(s.postedAtMs)} in ${channelMention(s.channelId)}`];
  parts.push(
    s.acknowledgedAtMs !== null
      ? mrkdwn`acknowledged after ${waited(s.acknowledgedAtMs - s.postedAtMs)}`
      : mrkdwn`not acknowledged yet`,
  );
  if (s.resolvedAtMs !== null) parts.push(mrkdwn`resolved after ${waited(s.resolvedAtMs - s.postedAtMs)}`);
  return joinMrkdwn(parts, mrkdwn` · `);
}

function entry(s: AlertState): KnownBlock {
  const lines = [title(s), stateLine(s), timesLine(s)];
  const note = quotedNote(s.resolveNote);
  if (note !== '') lines.push(mrkdwn`Note:${note}`);
  if (s.previousId !== null) lines.push(mrkdwn`:repeat: It had happened before.`);
  return sectionBlock(joinMrkdwn(lines, mrkdwn`\n`));
}

const FILTER_WORDS: Record<AlertStateFilter, string> = {
  open: 'Open alerts',
  resolved: 'Resolved alerts',
  all: 'Alerts',
};

export function alertsReply(v: AlertsViewInput): Reply {
  const brand = escapeMrkdwn(v.brandName);
  const heading = mrkdwn`${escapeMrkdwn(FILTER_WORDS[v.filter])} for ${brand}, last ${escapeMrkdwn(counted(v.days, 'day'))}`;
  if (v.states.length === 0) {
    const none =
      v.offset > 0
        ? mrkdwn`No more alerts on this page; the list has ${escapeMrkdwn(counted(v.total, 'alert'))}.`
        : mrkdwn`No ${v.filter === 'all' ? mrkdwn`` : mrkdwn`${escapeMrkdwn(v.filter)} `}alerts for *${brand}* in the last ${escapeMrkdwn(counted(v.days, 'day'))}. Alerts are kept as long as the bot keeps its history; \`--days\` looks further back.`;
    return { text: none, blocks: [sectionBlock(none)] };
  }
  const first = v.offset + 1;
  const last = v.offset + v.states.length;
  const range = mrkdwn`${first}–${last} of ${escapeMrkdwn(counted(v.total, 'alert'))}, newest first. Each title opens its message.`;
  const paging = offsetPagingBlock(
    {
      actionPrefix: ALERTS_PAGE_ACTION,
      base: { brandId: v.brandId, filter: v.filter, days: v.days },
      offset: v.offset,
      limit: ALERTS_PAGE_SIZE,
      total: v.total,
    },
    v.states.length,
  );
  const blocks: KnownBlock[] = [
    headerBlock(heading),
    ...[contextBlock(range)].filter((b): b is KnownBlock => b !== undefined),
    ...v.states.map(entry),
    ...(paging ? [paging] : []),
  ];
  const text = mrkdwn`${heading}: ${range}`;
  return { text, blocks };
}
