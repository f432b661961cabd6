/**
 * Packs lines into as few mrkdwn sections as fit Slack's 3000-character section limit,
 * never splitting a line (a split could cut a link or a code span in two).
 */
import type { KnownBlock } from '../../messages/block-kit-types.js';
import { type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { truncateMrkdwn } from '../../messages/truncate-mrkdwn.js';

export function chunkSections(lines: readonly Mrkdwn[], max = 3000): KnownBlock[] {
  const chunks: Mrkdwn[] = [];
  let current = mrkdwn``;
  for (const raw of lines) {
    const line = truncateMrkdwn(raw, max);
    if (current !== '' && current.length + 1 + line.length > max) {
      chunks.push(current);
      current = mrkdwn``;
    }
    current = current === '' ? line : mrkdwn`${current}\n${line}`;
  }
  if (current !== '') chunks.push(current);
  return chunks.map((text) => ({ type: 'section', text: { type: 'mrkdwn', text } }));
}
