/**
 * `/visibility …`: sent to the service as a signed slash command from the demo user in
 * #general; the console waits until the service has handled it (and follow-ups settled),
 * then shows the replies.
 */

import { awaitHandled } from '../await-handled.js';
import type { ConsoleContext } from '../console-context.js';
import { rec, str } from '../render/block-json.js';
import { renderMessage } from '../render/render-blocks.js';
import { showPending } from '../show-pending.js';

/** A reply in the HTTP answer itself (Bolt acks empty, but a command may answer in the ack). */
function showAckBody(ctx: ConsoleContext, body: string): void {
  if (body.trim() === '') return;
  let message: { text?: string; blocks?: unknown[] };
  try {
    const json = rec(JSON.parse(body)) ?? {};
    message = { text: str(json['text']) ?? '', blocks: Array.isArray(json['blocks']) ? json['blocks'] : [] };
  } catch {
    message = { text: body };
  }
  ctx.io.print(ctx.io.style.dim('── visibility-bot (in the acknowledgement)'));
  for (const line of renderMessage(message, { style: ctx.io.style, tokens: ctx.io.tokens }).lines)
    ctx.io.print(line);
}

export async function runSlashCommand(ctx: ConsoleContext, line: string): Promise<void> {
  const { stack, io, state } = ctx;
  const text = line.replace(/^\/visibility\b\s*/, '');

  const before = stack.handled();
  const res = await stack.slack.slashCommand(stack.appUrl, {
    text,
    userId: ctx.userId,
    channelId: ctx.channelId,
  });
  state.responseUrlChannels.set(res.responseUrlId, ctx.channelId);
  if (res.status !== 200) {
    io.print(io.style.bad(`The service answered HTTP ${res.status}: Slack would show "/visibility failed".`));
    return;
  }
  showAckBody(ctx, res.body);
  const done = await awaitHandled(ctx, before);
  const shown = showPending(ctx);
  if (!done) {
    io.print(
      io.style.dim(
        `(still working after ${ctx.timing.replyTimeoutMs / 1000} s; later replies show when they arrive, or with :wait)`,
      ),
    );
  } else if (shown === 0 && res.body.trim() === '') {
    io.print(io.style.dim('(no reply)'));
  }
}
