/**
 * What a command or action answers with. `text` is always set: Slack shows it in
 * notifications and to clients that cannot render blocks (docs/runtime-contract.md: every reply has a
 * plain-text fallback). It is `Mrkdwn`, escaped by construction like the blocks, because
 * a notification is where a live `<!channel>` would do the most harm.
 */

import type { KnownBlock } from './block-kit-types.js';
import { type ErrorExplanation, explainError } from './explain-error.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from './mrkdwn.js';

export interface Reply {
  text: Mrkdwn;
  blocks: KnownBlock[];
  /** default ephemeral: only the person who asked sees it */
  responseType?: 'ephemeral' | 'in_channel';
  replaceOriginal?: boolean;
}

export function mrkdwnSection(text: Mrkdwn): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

/** A one-section reply. */
export function textReply(text: Mrkdwn, options: Omit<Reply, 'text' | 'blocks'> = {}): Reply {
  return { ...options, text, blocks: [mrkdwnSection(text)] };
}

/** The user-facing text for `err` (see explain-error.ts), with usage when there is one. */
export function errorReply(err: unknown, facing: ErrorExplanation = explainError(err)): Reply {
  const { message, usage } = facing;
  const blocks: KnownBlock[] = [mrkdwnSection(mrkdwn`:warning: ${message}`)];
  if (usage)
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: mrkdwn`Usage: \`${escapeMrkdwn(usage)}\`` }],
    });
  return { text: usage ? mrkdwn`${message}\nUsage: ${escapeMrkdwn(usage)}` : message, blocks };
}
