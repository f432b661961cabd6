/**
 * conversations.info, conversations.history, conversations.replies, conversations.join.
 * https://docs.slack.dev/reference/methods/conversations.history: newest first, `oldest` /
 * `latest` exclusive unless `inclusive`, cursor paging via `response_metadata.next_cursor`,
 * `metadata` only with `include_all_metadata`, thread replies only when broadcast.
 */
import { messageJson } from '../message-json.js';
import { tsToMicros } from '../message-ts.js';
import { flag, str } from '../parse-api-args.js';
import { SLACK_LIMITS } from '../slack-limits.js';
import type { StoredMessage } from '../types.js';
import type { ChannelRecord } from '../workspace.js';
import { type MethodHandler, slackError } from './method-context.js';
import { requireChannel } from './require-channel.js';

function channelJson(c: ChannelRecord): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    name_normalized: c.name,
    is_channel: !c.isPrivate && !c.isIm,
    is_group: false,
    is_im: c.isIm,
    is_private: c.isPrivate,
    is_archived: c.isArchived,
    is_member: c.isMember,
    is_general: c.name === 'general',
    created: c.created,
  };
}

export const info: MethodHandler = (args, { ws }) => {
  const found = requireChannel(ws, args['channel'], { member: false, notArchived: false });
  if ('error' in found) return found.error;
  // Slack hides private channels from non-members altogether.
  if (found.channel.isPrivate && !found.channel.isMember) return slackError('channel_not_found');
  return { ok: true, channel: channelJson(found.channel) };
};

export const join: MethodHandler = (args, { ws }) => {
  const found = requireChannel(ws, args['channel'], { member: false, notArchived: true });
  if ('error' in found) return found.error;
  if (found.channel.isPrivate || found.channel.isIm)
    return slackError('method_not_supported_for_channel_type');
  found.channel.isMember = true;
  return { ok: true, channel: channelJson(found.channel) };
};

const CURSOR_PREFIX = 'next_ts:';

function encodeCursor(ts: string): string {
  return Buffer.from(`${CURSOR_PREFIX}${ts}`).toString('base64');
}

function decodeCursor(cursor: string): bigint | undefined {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  if (!text.startsWith(CURSOR_PREFIX)) return undefined;
  const ts = text.slice(CURSOR_PREFIX.length);
  return /^\d+(\.\d+)?$/.test(ts) ? tsToMicros(ts) : undefined;
}

function readLimit(value: unknown): number {
  const n = Number.parseInt(str(value) ?? '', 10);
  if (!Number.isFinite(n) || n <= 0) return SLACK_LIMITS.historyDefaultLimit;
  return Math.min(n, SLACK_LIMITS.historyMaxLimit);
}

function readTs(value: unknown): bigint | undefined {
  const ts = str(value);
  return ts && /^\d+(\.\d+)?$/.test(ts) ? tsToMicros(ts) : undefined;
}

const inHistory = (m: StoredMessage): boolean =>
  m.thread_ts === undefined || m.thread_ts === m.ts || m.reply_broadcast;

export const history: MethodHandler = (args, { ws }) => {
  const found = requireChannel(ws, args['channel'], { member: true, notArchived: false });
  if ('error' in found) return found.error;
  const limit = readLimit(args['limit']);
  const inclusive = flag(args['inclusive']);
  const oldest = readTs(args['oldest']) ?? 0n;
  // Slack's `latest` defaults to now; every stored message is at or before now, so no bound
  // is the same thing (and survives a frozen test clock issuing many ts in one millisecond).
  const latest = readTs(args['latest']);
  let before: bigint | undefined;
  const cursor = str(args['cursor']);
  if (cursor) {
    before = decodeCursor(cursor);
    if (before === undefined) return slackError('invalid_cursor');
  }
  const includeMetadata = flag(args['include_all_metadata']);
  const matching = ws
    .channelMessages(found.channel.id)
    .filter(inHistory)
    .filter((m) => {
      const t = tsToMicros(m.ts);
      const afterOldest = inclusive ? t >= oldest : t > oldest;
      const beforeLatest = latest === undefined || (inclusive ? t <= latest : t < latest);
      return afterOldest && beforeLatest && (before === undefined || t < before);
    })
    .sort((a, b) => (tsToMicros(b.ts) > tsToMicros(a.ts) ? 1 : -1));
  const page = matching.slice(0, limit);
  const hasMore = matching.length > page.length;
  const last = page.at(-1);
  return {
    ok: true,
    messages: page.map((m) => messageJson(m, ws.identity, includeMetadata)),
    has_more: hasMore,
    pin_count: 0,
    response_metadata: { next_cursor: hasMore && last ? encodeCursor(last.ts) : '' },
  };
};

export const replies: MethodHandler = (args, { ws }) => {
  const found = requireChannel(ws, args['channel'], { member: true, notArchived: false });
  if ('error' in found) return found.error;
  const ts = str(args['ts']);
  const parent = ts ? ws.findMessage(found.channel.id, ts) : undefined;
  if (!parent || !ts) return slackError('thread_not_found');
  const includeMetadata = flag(args['include_all_metadata']);
  const thread = ws.channelMessages(found.channel.id).filter((m) => m === parent || m.thread_ts === ts);
  const limit = readLimit(args['limit']);
  return {
    ok: true,
    messages: thread.slice(0, limit).map((m) => messageJson(m, ws.identity, includeMetadata)),
    has_more: thread.length > limit,
    response_metadata: { next_cursor: '' },
  };
};
