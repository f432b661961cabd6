/** The small pure pieces behind the read views: sparkline, progress bar, rates, generic payloads. */
import { describe, expect, it } from 'vitest';
import { formatSignedPercent } from '../../../src/messages/format-number.js';
import { ideaTypeName } from '../../../src/messages/vocabulary.js';
import { featureName, platformName } from '../../../src/slack/features/aipages/ai-pages-view.js';
import { percentScale } from '../../../src/slack/features/citations/percent-scale.js';
import { genericPayloadLines } from '../../../src/slack/features/crawler/generic-payload.js';
import { humanizeKey } from '../../../src/slack/features/crawler/payload-values.js';
import { itemLine } from '../../../src/slack/features/crawler/record-row.js';
import { cleanText } from '../../../src/slack/views/clean-text.js';
import { progressBar } from '../../../src/slack/views/progress-bar.js';
import { sparkline } from '../../../src/slack/views/sparkline.js';

describe('sparkline', () => {
  it('measures bars from zero, so their height is the size of the value', () => {
    expect(sparkline([0, 1, 2, 3, 4, 5, 6, 7])).toBe('▁▂▃▄▅▆▇█');
    // Half of the peak is half a bar high (a min..max scale drew ▁█▁).
    expect(sparkline([10, 20, 10])).toBe('▅█▅');
  });
  it('draws a 4 % dip as a 4 % dip, not a cliff', () => {
    // 24 → 23 (−4.2 %): on a min..max scale this was █…▁, a fall to nothing.
    const line = sparkline([24, 24, 24, 23, 23]);
    expect(line).toBe('█████');
    expect(line).not.toContain('▁');
    // A real fall still shows: 24 → 6 is three quarters gone.
    expect(sparkline([24, 6])).toBe('█▃');
  });
  it('hangs negative values below zero', () => {
    expect(sparkline([-10, 0, 10])).toBe('▁▅█');
  });
  it('shows gaps as dots and flat series on one level', () => {
    expect(sparkline([1, null, 3])).toBe('▃·█');
    expect(sparkline([0, 0, 0])).toBe('▁▁▁');
    expect(sparkline([5, 5])).toBe('██');
    expect(sparkline([])).toBe('');
  });
  it('averages a long series into at most maxWidth buckets', () => {
    const line = sparkline(
      Array.from({ length: 365 }, (_, i) => i),
      40,
    );
    expect(line).toHaveLength(40);
    expect(line[0]).toBe('▁');
    expect(line.at(-1)).toBe('█');
  });
});

describe('progressBar', () => {
  it('draws ten cells and the whole percent used, rounded down as the alerts read it', () => {
    expect(progressBar(42)).toBe('▰▰▰▰▱▱▱▱▱▱ 42 %');
    expect(progressBar(12.6)).toBe('▰▱▱▱▱▱▱▱▱▱ 12 %');
    expect(progressBar(79.9)).toBe('▰▰▰▰▰▰▰▰▱▱ 79 %');
    expect(progressBar(3)).toBe('▰▱▱▱▱▱▱▱▱▱ 3 %');
    expect(progressBar(100)).toBe('▰▰▰▰▰▰▰▰▰▰ 100 %');
    expect(progressBar(-3)).toBe('▱▱▱▱▱▱▱▱▱▱ 0 %');
    expect(progressBar(Number.NaN)).toBe('▱▱▱▱▱▱▱▱▱▱ 0 %');
  });
});

describe('number and label helpers', () => {
  it('reads a set of rates as fractions only when they all are', () => {
    expect(percentScale([0.4, 0.75, 1])).toBe(100);
    expect(percentScale([40, 75, 100])).toBe(1);
    expect(percentScale([0, 1])).toBe(1);
  });
  it('signs changes with a real minus', () => {
    expect(formatSignedPercent(-42.5)).toBe('−43 %');
    expect(formatSignedPercent(12)).toBe('+12 %');
    expect(formatSignedPercent(0.01)).toBe('no change');
    expect(formatSignedPercent(null)).toBe('no earlier figure');
  });
  it('names idea types, AI Pages features and platforms for people', () => {
    expect(ideaTypeName('position_weak')).toBe('Weak position');
    expect(ideaTypeName('brand_new_kind')).toBe('Brand new kind');
    expect(featureName('automatedfaqgeneration')).toBe('Automated FAQ generation');
    expect(featureName('somethingnew')).toBe('somethingnew');
    expect(platformName('nextjs')).toBe('Next.js');
  });
  it('drops control characters and mends lone surrogates', () => {
    expect(cleanText('a\u0000b\u0007c\n')).toBe('abc\n');
    expect(cleanText('x\ud800y')).toBe('x\uFFFDy');
    expect(cleanText('😀')).toBe('😀');
  });
});

describe('generic payloads', () => {
  it('renders scalars, nested objects, lists of objects and multi-line text', () => {
    const lines = genericPayloadLines(
      {
        brand_id: 'b1',
        summary: { total_visits: 1234, error_rate_pct: 2.5 },
        items: [
          { id: 'pg_1', url: 'https://x.example/pricing', title: 'Pricing', visits: 42, status: 'cited' },
          { name: 'GPTBot', visits: 7, crawlers: ['a', 'b'] },
        ],
        robots: { content: 'User-agent: *\nDisallow: /admin/', status_code: 200 },
        deep: { a: { b: { c: { d: { e: 1 } } } } },
      },
      { skipKeys: ['brand_id'] },
    );
    const text = lines.join('\n');
    expect(text).not.toContain('b1');
    // Figures as phrases, the count first: not `total visits 1,234`.
    expect(text).toContain('*Summary*: 1,234 total visits · error rate 2.5 %');
    expect(text).toContain('*Items* (2)');
    expect(text).toContain('• <https://x.example/pricing|Pricing> — Cited in AI answers · 42 visits');
    expect(text).not.toContain('pg_1');
    expect(text).toContain('*GPTBot* — 7 visits · crawlers: a, b');
    expect(text).toContain('*robots.txt*: HTTP status 200 OK');
    expect(text).toContain('```User-agent: *\nDisallow: /admin/```');
    expect(text).toContain('◦ *C*: 1 field');
  });

  it('names an item by its crawler and links its URL with its path', () => {
    expect(
      itemLine({
        crawler: 'ClaudeBot',
        url: 'https://x.example/a',
        path: '/a',
        platform: 'anthropic',
        status_code: 200,
      }),
    ).toBe('• *ClaudeBot* (Anthropic) <https://x.example/a|/a> — HTTP status 200 OK');
  });

  it('bounds lines, items and depth however big the payload', () => {
    const huge = Object.fromEntries(
      Array.from({ length: 5000 }, (_, i) => [`k${i}`, { list: Array(3000).fill({ n: i }) }]),
    );
    const lines = genericPayloadLines(huge, { maxLines: 30 });
    expect(lines.length).toBeLessThanOrEqual(31);
    expect(lines.at(-1)).toMatch(/more fields/);
    let deep: unknown = 1;
    for (let i = 0; i < 2000; i += 1) deep = { x: deep, y: 'z' };
    expect(() => genericPayloadLines(deep)).not.toThrow();
  });

  it('humanises snake_case and camelCase keys', () => {
    expect(humanizeKey('total_visits')).toBe('Total visits');
    expect(humanizeKey('lastCrawledAt')).toBe('Last crawled at');
  });
});
