/**
 * The App Home's 7-day trend bars: read back from the newest digest chart row of each
 * brand (no API or Slack call), drawn on a scale from zero so a 4 % dip is a slightly
 * shorter bar and not a cliff, with the last day and the peak as figures.
 */
import { describe, expect, it } from 'vitest';
import { validateBlocks } from '../../../../src/dev/local-slack/index.js';
import { brandsHomeView, trendText } from '../../../../src/slack/features/home/home-view.js';
import { loadDigestTrends } from '../../../../src/slack/features/home/load-digest-trends.js';
import type { OutboxChartDay } from '../../../../src/store/outbox-repo.js';
import { useTempOutbox } from '../../../store/temp-db.js';

const ctx = useTempOutbox();
const NOW = Date.UTC(2026, 10, 15, 9);
const DAY = 86_400_000;

const week = (values: number[], lastDay = 14): OutboxChartDay[] =>
  values.map((value, i) => ({
    date: `2026-11-${String(lastDay - values.length + 1 + i).padStart(2, '0')}`,
    value,
  }));

async function chartRow(
  key: string,
  brandId: string,
  atMs: number,
  citations: number[] | null,
  visits: number[] | null,
) {
  await ctx.outbox.enqueue({
    dedupeKey: key,
    channelId: 'C1',
    brandId,
    kind: 'chart',
    payload: {
      text: 'chart',
      chart: {
        type: 'digest-brand',
        brand: brandId,
        citations: citations && week(citations),
        crawlerVisits: visits && week(visits),
        afterDedupeKey: `digest:${key}`,
      },
    },
    nowMs: atMs,
  });
}

describe('loadDigestTrends', () => {
  it("takes each brand's newest digest chart, and nothing for brands without one", async () => {
    await chartRow('old', 'b1', NOW - 2 * DAY, [1, 1, 1, 1, 1, 1, 1], null);
    await chartRow('new', 'b1', NOW - DAY, [24, 25, 22, 20, 23, 26, 23], [140, 150, 0, 160, 155, 150, 145]);
    await chartRow('other', 'b2', NOW, null, [5, 6, 7, 8, 9, 10, 11]);
    await chartRow('unasked', 'b3', NOW, [9, 9, 9, 9, 9, 9, 9], null);
    // An alert row of the same brand is not a trend.
    await ctx.outbox.enqueue({
      dedupeKey: 'alert',
      channelId: 'C1',
      brandId: 'b1',
      kind: 'alert',
      payload: { text: 'x' },
      nowMs: NOW,
    });

    const trends = await loadDigestTrends(ctx.t.store, ['b1', 'b2', 'b4']);
    expect([...trends.keys()].sort()).toEqual(['b1', 'b2']);
    expect(trends.get('b1')).toEqual({
      createdAtMs: NOW - DAY,
      citations: week([24, 25, 22, 20, 23, 26, 23]),
      crawlerVisits: week([140, 150, 0, 160, 155, 150, 145]),
    });
    expect(trends.get('b2')?.citations).toBeNull();
  });
});

/** Date tokens as their fallback: what a reader sees where Slack cannot render them. */
const fallbackDates = (text: string) => text.replace(/<!date\^\d+\^[^|]+\|([^>]+)>/g, '$1');

describe('trendText', () => {
  it('draws bars from zero with the latest day and the peak, by the glossary names', () => {
    const text = fallbackDates(
      trendText({
        createdAtMs: NOW,
        citations: week([24, 25, 22, 20, 23, 26, 23]),
        crawlerVisits: week([140, 150, 0, 160, 155, 150, 145]),
      }),
    );
    const [citations, visits] = text.split('\n');
    // 20 of 26 is still a tall bar on a zero-based scale; a min-max scale drew it as ▁.
    expect(citations).toBe('Citations, 7 days to Nov 14, 2026: `▇█▇▆▇█▇` latest 23, peak 26');
    expect(visits).toBe('AI crawler visits, 7 days to Nov 14, 2026: `▇█▁███▇` latest 145, peak 160');
  });

  it('leaves out a series the digest had no figures for, and says nothing without a trend', () => {
    expect(
      fallbackDates(
        trendText({ createdAtMs: NOW, citations: null, crawlerVisits: week([0, 0, 1, 0, 0, 0, 2]) }),
      ),
    ).toBe('AI crawler visits, 7 days to Nov 14, 2026: `▁▁▅▁▁▁█` latest 2, peak 2');
    expect(trendText(undefined)).toBe('');
  });

  it('sits in the brand summary of a valid Home view', () => {
    const view = brandsHomeView(
      [
        {
          brand: {
            id: 'b1',
            name: 'Acme',
            website: null,
            active: true,
            role: 'owner',
            location: null,
            location_region: null,
            location_city: null,
          },
          aiPages: { status: 'not_set_up' },
          trend: { createdAtMs: NOW, citations: week([1, 2, 3, 4, 5, 6, 7]), crawlerVisits: null },
        },
      ],
      NOW,
    );
    expect(validateBlocks(view.blocks, 'home')).toBeUndefined();
    expect(fallbackDates(JSON.stringify(view.blocks))).toContain(
      'Citations, 7 days to Nov 14, 2026: `▂▃▄▅▆▇█` latest 7, peak 7',
    );
  });
});
