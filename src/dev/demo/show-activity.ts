/**
 * Shows what the service did in Slack since a mark, in order: replies on response_urls,
 * messages posted or updated, charts shared (and the file each was written to), modals
 * opened, pushed or updated, Home views published.
 * The clickables shown are numbered from 1 and become what `:click N` presses; a modal
 * shown becomes what `:submit` fills in.
 */
import type { RecordedCall, ResponseUrlPost } from '../local-slack/index.js';
import type { ActivityMark } from './activity-mark.js';
import { channelLabel } from './channel-label.js';
import { chartFileLines, sharedFileIds } from './chart-files.js';
import type { ConsoleContext } from './console-context.js';
import type { ClickTarget, ShownClickable } from './console-state.js';
import { list, rec, str } from './render/block-json.js';
import { renderMessage } from './render/render-blocks.js';
import type { Rendered } from './render/render-context.js';
import { renderView } from './render/render-view.js';

const VIEW_HEADINGS: Record<string, string> = {
  'views.open': 'visibility-bot opened a modal',
  'views.push': 'visibility-bot pushed a modal',
  'views.update': 'visibility-bot updated a view',
  'views.publish': 'visibility-bot published your App Home',
};

type Item = { at: number; post: ResponseUrlPost } | { at: number; call: RecordedCall };

const SHOWN_METHODS = new Set([
  'chat.postMessage',
  'chat.postEphemeral',
  'chat.update',
  'chat.delete',
  'files.completeUploadExternal',
  'views.open',
  'views.push',
  'views.update',
  'views.publish',
]);

/** What reached Slack since `since` that the console shows, oldest first. */
function activitySince(ctx: ConsoleContext, since: ActivityMark): Item[] {
  const { slack } = ctx.stack;
  return [
    ...slack.responses.slice(since.responses).map((post) => ({ at: post.at, post })),
    ...slack.calls
      .slice(since.calls)
      .filter((call) => SHOWN_METHODS.has(call.method))
      .map((call) => ({ at: call.at, call })),
  ].sort((a, b) => a.at - b.at);
}

/** How many things since `since` the console would show (auth.test, users.info and the like are not shown). */
export function countShowable(ctx: ConsoleContext, since: ActivityMark): number {
  return activitySince(ctx, since).length;
}

/** How one item is printed: a heading and its rendered lines, numbering what can be clicked. */
interface Printer {
  block(heading: string, rendered: Rendered, target: ClickTarget | undefined): void;
  options(): {
    style: ConsoleContext['io']['style'];
    tokens: ConsoleContext['io']['tokens'];
    firstNumber: number;
  };
  where(channelId: string): string;
}

/** A reply the bot posted to a response_url: refused, deleted, or a message (updated or new). */
function showPost(ctx: ConsoleContext, post: ResponseUrlPost, p: Printer): void {
  const { io, state } = ctx;
  const { style } = io;
  if (post.status !== 200) {
    io.print(
      style.bad(
        `Slack refused a reply (${post.error}${post.errors.length ? `: ${post.errors.join('; ')}` : ''})`,
      ),
    );
    return;
  }
  const body = rec(post.body) ?? {};
  const channelId = state.responseUrlChannels.get(post.responseUrlId) ?? ctx.channelId;
  if (body['delete_original'] === true) {
    io.print(style.dim('── visibility-bot deleted the message'));
    return;
  }
  const heading =
    body['replace_original'] === true
      ? 'visibility-bot updated the message'
      : body['response_type'] === 'in_channel'
        ? `visibility-bot in ${p.where(channelId)}`
        : 'visibility-bot (only visible to you)';
  const target = post.messageTs
    ? { kind: 'message' as const, channelId, messageTs: post.messageTs }
    : undefined;
  p.block(
    heading,
    renderMessage({ text: str(body['text']), blocks: list(body['blocks']) }, p.options()),
    target,
  );
}

/** A Web API call the bot made: failed, a view, a shared chart, a deletion or a message. */
function showCall(ctx: ConsoleContext, call: RecordedCall, p: Printer): void {
  const { stack, io, state } = ctx;
  const { style } = io;
  const response = call.response;
  if (call.status !== 200 || response['ok'] !== true) {
    const messages = list(rec(response['response_metadata'])?.['messages']).join('; ');
    io.print(
      style.bad(
        `${call.method} failed: ${String(response['error'] ?? `HTTP ${call.status}`)}${messages ? ` (${messages})` : ''}`,
      ),
    );
    return;
  }
  if (call.method.startsWith('views.')) {
    const viewId = str(rec(response['view'])?.['id']);
    const view = viewId ? stack.slack.view(viewId) : undefined;
    if (!view) return;
    if (view.type === 'modal' && !view.closed) state.modalId = view.id;
    p.block(VIEW_HEADINGS[call.method] ?? `visibility-bot (${call.method})`, renderView(view, p.options()), {
      kind: 'view',
      viewId: view.id,
    });
    return;
  }
  if (call.method === 'files.completeUploadExternal') {
    const channelId = str(call.args['channel_id']);
    const where = channelId
      ? `${channelLabel(channelId, ctx.channelId)}${call.args['thread_ts'] ? ', in a thread' : ''}`
      : 'nowhere yet (no channel)';
    io.print();
    io.print(style.dim(`── visibility-bot shared a chart in ${where}`));
    const comment = str(call.args['initial_comment']);
    if (comment) for (const line of renderMessage({ text: comment }, p.options()).lines) io.print(line);
    for (const line of chartFileLines(ctx, sharedFileIds(call.args))) io.print(line);
    return;
  }
  const channelId = str(response['channel']) ?? str(call.args['channel']) ?? ctx.channelId;
  if (call.method === 'chat.delete') {
    io.print(style.dim(`── visibility-bot deleted a message in ${p.where(channelId)}`));
    return;
  }
  const ts = str(response['ts']) ?? str(response['message_ts']);
  const heading =
    call.method === 'chat.update'
      ? `visibility-bot updated a message in ${p.where(channelId)}`
      : call.method === 'chat.postEphemeral'
        ? `visibility-bot in ${p.where(channelId)} (only visible to you)`
        : `visibility-bot in ${p.where(channelId)}`;
  const rendered = renderMessage(
    { text: str(call.args['text']), blocks: list(call.args['blocks']) },
    p.options(),
  );
  p.block(heading, rendered, ts ? { kind: 'message', channelId, messageTs: ts } : undefined);
}

export function showActivity(ctx: ConsoleContext, since: ActivityMark): number {
  const { io, state } = ctx;
  const { style } = io;
  const items = activitySince(ctx, since);
  const shown: ShownClickable[] = [];
  const p: Printer = {
    block(heading, rendered, target) {
      io.print();
      io.print(style.dim(`── ${heading}`));
      for (const line of rendered.lines) io.print(line);
      if (target) shown.push(...rendered.clickables.map((c) => ({ ...c, target })));
    },
    options: () => ({ style, tokens: io.tokens, firstNumber: shown.length + 1 }),
    where: (channelId) => channelLabel(channelId, ctx.channelId),
  };
  for (const item of items) {
    if ('post' in item) showPost(ctx, item.post, p);
    else showCall(ctx, item.call, p);
  }
  if (shown.length > 0) state.clickables = shown;
  return items.length;
}
