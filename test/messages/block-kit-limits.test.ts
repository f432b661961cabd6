import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateBlocks } from '../../src/dev/local-slack/index.js';
import { BLOCK_KIT_LIMITS as L } from '../../src/messages/block-kit-limit-table.js';
import { fitMessage, fitView } from '../../src/messages/block-kit-limits.js';
import type { KnownBlock, ModalView } from '../../src/messages/block-kit-types.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn as md } from '../../src/messages/mrkdwn.js';
import type { Reply } from '../../src/messages/reply.js';
import { truncateMrkdwn, truncatePlain } from '../../src/messages/truncate-mrkdwn.js';

// ---- generators: mrkdwn made of the pieces that can break when cut

const piece = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.string({ minLength: 1, maxLength: 40 }).map((s) => s.replace(/[*_~`<>&]/g, 'x')),
  },
  { weight: 2, arbitrary: fc.constantFrom('*', '_', '~', ' ', '\n') },
  { weight: 1, arbitrary: fc.constantFrom('`', '```', '&amp;', '&lt;', '😀', '👩‍💻', 'é') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('<https://example.com/a_b*c|Acme *Analytics*>', '<@U012AB>', '<!here>'),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('*bold words*', '_it_', '~gone~', '`code * x`', '```\nblock _x_\n```'),
  },
);
// The pieces are well-formed mrkdwn (escaped entities, our own links and markers): what a
// builder hands to fitMessage, so they are trusted here as a builder's output would be.
const mrkdwn = (maxPieces: number) =>
  fc.array(piece, { minLength: 1, maxLength: maxPieces }).map((p) => p.join('') as Mrkdwn);
/** Mostly short, sometimes far beyond any limit. */
const anyText = fc.oneof(mrkdwn(20), mrkdwn(400), mrkdwn(1500)).filter((s) => s.trim().length > 0);
const count = (s: string, ch: string) => s.split(ch).length - 1;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const button = (i: number) =>
  fc
    .record({
      text: anyText,
      value: fc.string({ maxLength: 2500 }),
      suffix: fc.string({ maxLength: 300 }),
    })
    .map(({ text, value, suffix }) => ({
      type: 'button' as const,
      action_id: `a${i}:${suffix}`,
      text: { type: 'plain_text' as const, text },
      value,
    }));

const option = fc.record({ text: anyText, value: fc.string({ minLength: 1, maxLength: 300 }) }).map((o) => ({
  text: { type: 'plain_text' as const, text: o.text },
  value: o.value,
}));

const block: fc.Arbitrary<KnownBlock> = fc.oneof(
  fc
    .record({
      text: anyText,
      fields: fc.option(fc.array(anyText, { minLength: 1, maxLength: 15 }), { nil: undefined }),
      select: fc.option(fc.array(option, { minLength: 1, maxLength: 150 }), { nil: undefined }),
    })
    .map(({ text, fields, select }) => ({
      type: 'section' as const,
      text: { type: 'mrkdwn' as const, text },
      ...(fields ? { fields: fields.map((f) => ({ type: 'mrkdwn' as const, text: f })) } : {}),
      ...(select
        ? {
            accessory: {
              type: 'static_select' as const,
              action_id: 'pick',
              placeholder: { type: 'plain_text' as const, text: escapeMrkdwn('Choose'.repeat(40)) },
              options: select,
            },
          }
        : {}),
    })),
  anyText.map((text) => ({ type: 'header' as const, text: { type: 'plain_text' as const, text } })),
  fc.array(anyText, { minLength: 1, maxLength: 15 }).map((texts) => ({
    type: 'context' as const,
    elements: texts.map((text) => ({ type: 'mrkdwn' as const, text })),
  })),
  fc
    .integer({ min: 1, max: 30 })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => button(i))))
    .map((elements) => ({ type: 'actions' as const, elements })),
  fc.constant({ type: 'divider' as const }),
);

const blocks = (max: number) => fc.array(block, { maxLength: max });

describe('fitMessage', () => {
  it('never lets a message break a Slack limit, whatever goes in', () => {
    fc.assert(
      fc.property(blocks(120), anyText, (input, text) => {
        const fitted = fitMessage({ text, blocks: input });
        expect(fitted.blocks.length).toBeLessThanOrEqual(L.messageBlocks);
        expect(fitted.text.length).toBeLessThanOrEqual(L.fallbackText);
        expect(JSON.stringify(fitted.blocks).length).toBeLessThanOrEqual(L.messageBlocksChars);
        // The local Slack's validator is an independent reading of the same limits.
        expect(validateBlocks(fitted.blocks, 'message')).toBeUndefined();
        expect(LONE_SURROGATE.test(JSON.stringify(fitted))).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  it('leaves a message that fits untouched', () => {
    const reply: Reply = {
      text: md`Hi`,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: md`*Acme* · owner` } }],
      responseType: 'in_channel',
    };
    expect(fitMessage(reply)).toEqual(reply);
  });

  it('ends a cut list with "…and N more"', () => {
    const many: KnownBlock[] = Array.from({ length: 80 }, (_, i) => ({
      type: 'section',
      text: { type: 'mrkdwn', text: md`brand ${i}` },
    }));
    const fitted = fitMessage({ text: md`brands`, blocks: many });
    expect(fitted.blocks).toHaveLength(50);
    expect(fitted.blocks.at(-1)).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: '…and 31 more not shown' }],
    });
  });

  it('drops blocks past the character budget and counts them', () => {
    const big: KnownBlock[] = Array.from({ length: 10 }, () => ({
      type: 'section',
      text: { type: 'mrkdwn', text: escapeMrkdwn('x'.repeat(2900)) },
    }));
    const fitted = fitMessage({ text: md`t`, blocks: big });
    expect(JSON.stringify(fitted.blocks).length).toBeLessThanOrEqual(L.messageBlocksChars);
    const shown = fitted.blocks.length - 1;
    expect(fitted.blocks.at(-1)).toMatchObject({ elements: [{ text: `…and ${10 - shown} more not shown` }] });
  });

  it('derives the fallback text from the blocks when none was given', () => {
    expect(
      fitMessage({ text: md` `, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: md`Hello` } }] })
        .text,
    ).toBe('Hello');
  });
});

describe('fitView', () => {
  it('never lets a modal break a view limit', () => {
    fc.assert(
      fc.property(blocks(160), anyText, fc.string({ maxLength: 4000 }), (input, title, meta) => {
        const view: ModalView = {
          type: 'modal',
          callback_id: `vis:${'c'.repeat(300)}`,
          title: { type: 'plain_text', text: title },
          submit: { type: 'plain_text', text: title },
          private_metadata: meta,
          blocks: input,
        };
        const fitted = fitView(view);
        expect(fitted.blocks.length).toBeLessThanOrEqual(L.viewBlocks);
        expect(fitted.title.text.length).toBeLessThanOrEqual(L.viewTitle);
        expect(fitted.submit?.text.length ?? 0).toBeLessThanOrEqual(L.viewButton);
        expect(fitted.callback_id?.length ?? 0).toBeLessThanOrEqual(L.callbackId);
        expect(fitted.private_metadata?.length ?? 0).toBeLessThanOrEqual(L.privateMetadata);
        expect(validateBlocks(fitted.blocks, 'modal')).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });
});

describe('truncateMrkdwn', () => {
  it('fits the limit, keeps a prefix and leaves short text alone', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: 3000 }), (text, max) => {
        const out = truncateMrkdwn(text, max);
        expect(out.length).toBeLessThanOrEqual(max);
        if (text.length <= max) expect(out).toBe(text);
        else {
          const kept = out.slice(0, out.indexOf('…'));
          expect(text.startsWith(kept)).toBe(true);
        }
        expect(LONE_SURROGATE.test(out)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('never leaves a link or mention open', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: 400 }), (text, max) => {
        const out = truncateMrkdwn(text, max);
        // every < is closed by a > before the next <
        expect(/<[^>]*(<|$)/.test(out)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  // Inside a code span *, _ and ~ are literal, so each family is checked on text without the other.
  const textOf = (markers: string[]) =>
    fc
      .array(
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 20 }).map((s) => s.replace(/[*_~`<>&]/g, 'x')),
          fc.constantFrom(...markers, ' '),
        ),
        { minLength: 1, maxLength: 200 },
      )
      .map((p) => p.join(''));

  it('keeps *, _ and ~ paired when the input had them paired', () => {
    fc.assert(
      fc.property(textOf(['*', '_', '~']), fc.integer({ min: 1, max: 300 }), (text, max) => {
        const out = truncateMrkdwn(text, max);
        for (const m of ['*', '_', '~']) {
          if (count(text, m) % 2 === 0) expect(count(out, m) % 2).toBe(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps backticks paired when the input had them paired', () => {
    fc.assert(
      // Backticks inside code are literal, so spans hold none (as our builders' code does).
      fc.property(
        textOf(['`one two`', '```\nsome block\n```', '`x`']),
        fc.integer({ min: 1, max: 300 }),
        (text, max) => {
          const out = truncateMrkdwn(text, max);
          if (count(text, '`') % 2 === 0) expect(count(out, '`') % 2).toBe(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('closes an open span after the ellipsis and never cuts a URL', () => {
    expect(truncateMrkdwn('*bold and rather long text*', 12)).toBe('*bold and…*');
    expect(truncateMrkdwn('see `some code here` now', 14)).toBe('see `some co…`');
    expect(truncateMrkdwn('go <https://example.com/very/long/path|Acme Analytics> now', 50)).toBe(
      'go <https://example.com/very/long/path|Acme Anal…>',
    );
    expect(truncateMrkdwn('go <https://example.com/very/long/path|Acme Analytics>', 20)).toBe('go…');
    expect(truncateMrkdwn('R&amp;D team', 4)).toBe('R…');
    expect(truncateMrkdwn('ab😀cd', 4)).toBe('ab…');
  });

  it('escapes &, < and > for mrkdwn', () => {
    expect(escapeMrkdwn('R&D <b> x>y')).toBe('R&amp;D &lt;b&gt; x&gt;y');
  });
});

describe('truncatePlain', () => {
  it('cuts with an ellipsis and never splits an emoji', () => {
    expect(truncatePlain('Brand Visibility', 8)).toBe('Brand V…');
    expect(truncatePlain('Brand Visibility', 7)).toBe('Brand…');
    expect(truncatePlain('😀😀😀', 4)).toBe('😀…');
  });
});
