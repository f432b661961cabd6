/** Header, context and section blocks already cut to Slack's limits, so builders stay short. */
import type { KnownBlock } from '../../messages/block-kit-types.js';
import { joinMrkdwn, type Mrkdwn, mrkdwn, trimMrkdwn } from '../../messages/mrkdwn.js';
import { truncateMrkdwn, truncatePlain } from '../../messages/truncate-mrkdwn.js';
import { cleanText } from './clean-text.js';

export function headerBlock(text: Mrkdwn): KnownBlock {
  return {
    type: 'header',
    text: {
      type: 'plain_text',
      text: truncatePlain(trimMrkdwn(cleanText(text)) || mrkdwn`Brand Visibility`, 150),
    },
  };
}

/** One mrkdwn element; the parts are joined with a middle dot. Empty parts are dropped. */
export function contextBlock(...parts: (Mrkdwn | undefined | false)[]): KnownBlock | undefined {
  const text = cleanText(
    joinMrkdwn(
      parts.filter((p): p is Mrkdwn => typeof p === 'string' && p.trim() !== ''),
      mrkdwn`  ·  `,
    ),
  );
  return text.trim() === ''
    ? undefined
    : { type: 'context', elements: [{ type: 'mrkdwn', text: truncateMrkdwn(text, 1000) }] };
}

export function sectionBlock(text: Mrkdwn, max = 3000): KnownBlock {
  const clean = cleanText(text);
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: truncateMrkdwn(clean.trim() === '' ? mrkdwn`—` : clean, max) },
  };
}

/** Up to 10 short `*label*\nvalue` fields side by side. */
export function fieldsBlock(fields: readonly { label: Mrkdwn; value: Mrkdwn }[]): KnownBlock | undefined {
  if (fields.length === 0) return undefined;
  return {
    type: 'section',
    fields: fields.slice(0, 10).map((f) => ({
      type: 'mrkdwn' as const,
      text: truncateMrkdwn(
        cleanText(mrkdwn`*${f.label}*\n${f.value.trim() === '' ? mrkdwn`—` : f.value}`),
        1000,
      ),
    })),
  };
}

export const compact = (blocks: readonly (KnownBlock | undefined)[]): KnownBlock[] =>
  blocks.filter((b): b is KnownBlock => b !== undefined);
