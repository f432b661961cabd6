import { describe, expect, it } from 'vitest';
import { dayChart } from '../../src/messages/day-chart.js';
import { escapeMrkdwn as e, type Mrkdwn, mrkdwn } from '../../src/messages/mrkdwn.js';
import { describePoints, fitUnique, pieChart, seriesChart } from '../../src/messages/native-chart.js';

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayLabel = (date: string) => DAY.format(Date.parse(`${date}T00:00:00Z`));
const date = (offset: number) =>
  new Date(Date.UTC(2026, 10, 1) + offset * 86_400_000).toISOString().slice(0, 10);
const days = (count: number, value: (i: number) => number | null = (i) => i + 1, from = 0) =>
  Array.from({ length: count }, (_, i) => ({ date: date(from + i), value: value(i) }));

describe('seriesChart', () => {
  it('builds a bar chart whose labels are its categories, and states every value', () => {
    const { block, text, omitted } = seriesChart({
      type: 'bar',
      title: mrkdwn`Visits by crawler`,
      series: [
        {
          name: mrkdwn`Visits`,
          points: [
            { label: mrkdwn`GPTBot`, value: 1234 },
            { label: mrkdwn`ClaudeBot`, value: 567 },
          ],
        },
      ],
      yLabel: mrkdwn`Visits`,
    });
    expect(omitted).toBe(0);
    expect(block).toEqual({
      type: 'data_visualization',
      title: 'Visits by crawler',
      chart: {
        type: 'bar',
        series: [
          {
            name: 'Visits',
            data: [
              { label: 'GPTBot', value: 1234 },
              { label: 'ClaudeBot', value: 567 },
            ],
          },
        ],
        axis_config: { categories: ['GPTBot', 'ClaudeBot'], y_label: 'Visits' },
      },
    });
    expect(text).toBe('Visits by crawler: Visits GPTBot 1,234, ClaudeBot 567');
  });

  it('cuts the title to 50 characters and names to 20, keeping names distinct', () => {
    const long = e('Northwind Outfitters International');
    const { block } = seriesChart({
      type: 'line',
      title: e('Citations of Northwind Outfitters International against its competitors'),
      series: [
        { name: long, points: [{ label: mrkdwn`1 Nov`, value: 1 }] },
        { name: e('Northwind Outfitters Internal'), points: [{ label: mrkdwn`1 Nov`, value: 2 }] },
      ],
    });
    expect(block!.title.length).toBeLessThanOrEqual(50);
    expect(block!.title.endsWith('…')).toBe(true);
    const names = block!.chart.type === 'pie' ? [] : block!.chart.series.map((s) => s.name);
    expect(names.every((n) => n.length <= 20)).toBe(true);
    expect(new Set(names).size).toBe(2);
    expect(names[1]!.endsWith(' 2')).toBe(true);
  });

  it('keeps at most 6 series and says how many were left out', () => {
    const series = Array.from({ length: 8 }, (_, i) => ({
      name: e(`Rival ${i}`),
      points: [{ label: mrkdwn`Mon`, value: i }],
    }));
    const { block, text, omitted } = seriesChart({ type: 'line', title: mrkdwn`Mentions`, series });
    expect(block!.chart.type !== 'pie' && block!.chart.series).toHaveLength(6);
    expect(omitted).toBe(2);
    expect(text).toMatch(/\(…and 2 more not shown\)$/);
  });

  it('keeps the last 20 categories and only points among them, gaps for missing figures', () => {
    const points = Array.from({ length: 30 }, (_, i) => ({
      label: e(`Day ${i + 1}`),
      value: i === 25 ? Number.NaN : i,
    }));
    const { block, text } = seriesChart({
      type: 'area',
      title: mrkdwn`Usage`,
      series: [{ name: mrkdwn`Used`, points }],
    });
    if (block?.chart.type === 'pie' || !block) throw new Error('expected a series chart');
    const { categories } = block.chart.axis_config;
    expect(categories).toHaveLength(20);
    expect(categories[0]).toBe('Day 11');
    const data = block.chart.series[0]!.data;
    expect(data).toHaveLength(19);
    expect(data.every((p) => categories.includes(p.label))).toBe(true);
    expect(data.map((p) => p.label)).not.toContain('Day 26');
    expect(text).toBe('Usage: Used 10 on Day 11 to 29 on Day 30, low 10, high 29');
  });

  it('orders points along the given categories and leaves out labels not among them', () => {
    const { block } = seriesChart({
      type: 'bar',
      title: mrkdwn`Week`,
      categories: [mrkdwn`Mon`, mrkdwn`Tue`, mrkdwn`Wed`],
      series: [
        {
          name: mrkdwn`Visits`,
          points: [
            { label: mrkdwn`Wed`, value: 3 },
            { label: mrkdwn`Sun`, value: 9 },
            { label: mrkdwn`Mon`, value: 1 },
          ],
        },
      ],
    });
    expect(block!.chart.type !== 'pie' && block!.chart.series[0]!.data.map((p) => p.label)).toEqual([
      'Mon',
      'Wed',
    ]);
  });

  it('has no block when no series has a finite point, and says so', () => {
    const { block, text } = seriesChart({
      type: 'line',
      title: mrkdwn`Nothing`,
      series: [{ name: mrkdwn`A`, points: [{ label: mrkdwn`x`, value: null }] }],
    });
    expect(block).toBeUndefined();
    expect(text).toBe('Nothing: no data');
  });

  it('escapes names and labels by construction', () => {
    const { block, text } = seriesChart({
      type: 'bar',
      title: e('A&B <!here>'),
      series: [{ name: e('<@U123>'), points: [{ label: e('<x|y>'), value: 1 }] }],
    });
    expect(JSON.stringify(block)).not.toMatch(/<[!@x]/);
    expect(text).not.toMatch(/<[!@x]/);
    // @ts-expect-error: a title must be escaped Mrkdwn
    seriesChart({ type: 'bar', title: 'raw', series: [] });
  });
});

describe('pieChart', () => {
  it('draws slices above 0, largest first, and states each with its share', () => {
    const { block, text } = pieChart({
      title: mrkdwn`Visits by bot type`,
      segments: [
        { label: mrkdwn`Training bot`, value: 300 },
        { label: mrkdwn`Search bot`, value: 700 },
        { label: mrkdwn`Unknown`, value: 0 },
        { label: mrkdwn`Broken`, value: Number.NaN },
      ],
    });
    expect(block!.chart).toEqual({
      type: 'pie',
      segments: [
        { label: 'Search bot', value: 700 },
        { label: 'Training bot', value: 300 },
      ],
    });
    expect(text).toBe('Visits by bot type: Search bot 700 (70 %); Training bot 300 (30 %)');
  });

  it('folds slices past 6 into "Other", so the pie still adds up', () => {
    const segments = Array.from({ length: 9 }, (_, i) => ({ label: e(`Bot ${i + 1}`), value: 10 - i }));
    const { block, omitted } = pieChart({ title: mrkdwn`Bots`, segments });
    if (block?.chart.type !== 'pie') throw new Error('expected a pie');
    expect(block.chart.segments).toHaveLength(6);
    expect(block.chart.segments.at(-1)).toEqual({ label: 'Other', value: 5 + 4 + 3 + 2 });
    expect(block.chart.segments.reduce((s, x) => s + x.value, 0)).toBe(54);
    expect(omitted).toBe(4);
  });

  it('has no block without a slice above 0', () => {
    expect(
      pieChart({ title: mrkdwn`Empty`, segments: [{ label: mrkdwn`A`, value: 0 }] }).block,
    ).toBeUndefined();
  });
});

describe('describePoints and fitUnique', () => {
  it('lists up to 7 values and summarises longer series', () => {
    const p = (n: number) => Array.from({ length: n }, (_, i) => ({ label: e(`d${i}`), value: 10 + i }));
    expect(describePoints(p(7))).toBe('d0 10, d1 11, d2 12, d3 13, d4 14, d5 15, d6 16');
    expect(describePoints(p(8))).toBe('10 on d0 to 17 on d7, low 10, high 17');
    expect(describePoints([])).toBe('no data');
  });

  it('never cuts inside an entity and keeps cut texts distinct', () => {
    const fitted = fitUnique([e('AT&T Communications A'), e('AT&T Communications B'), e('Short')], 20);
    const values = [...fitted.values()] as Mrkdwn[];
    expect(new Set(values).size).toBe(3);
    for (const v of values) {
      expect(v.length).toBeLessThanOrEqual(20);
      expect(v).not.toMatch(/&(?!amp;)/);
    }
    expect(fitted.get(e('Short'))).toBe('Short');
  });
});

describe('dayChart', () => {
  it('draws up to 20 days one point a day, gaps where a day has no figure', () => {
    const { block } = dayChart({
      type: 'line',
      title: mrkdwn`Citations`,
      longSpan: 'sum',
      dayLabel,
      series: [{ name: mrkdwn`Acme`, days: days(14, (i) => (i === 3 ? null : i)) }],
    });
    if (block?.chart.type === 'pie' || !block) throw new Error('expected a series chart');
    expect(block.chart.axis_config.categories).toHaveLength(14);
    expect(block.chart.axis_config.categories[0]).toBe('1 Nov');
    expect(block.chart.series[0]!.data).toHaveLength(13);
  });

  it('groups 30 days into 15 periods of 2, summed, the newest period whole', () => {
    const { block, text } = dayChart({
      type: 'bar',
      title: mrkdwn`Crawler visits`,
      longSpan: 'sum',
      dayLabel,
      series: [{ name: mrkdwn`Visits`, days: days(30) }],
    });
    if (block?.chart.type === 'pie' || !block) throw new Error('expected a series chart');
    const data = block.chart.series[0]!.data;
    expect(data).toHaveLength(15);
    expect(data[0]).toEqual({ label: '1 Nov–2 Nov', value: 1 + 2 });
    expect(data.at(-1)).toEqual({ label: '29 Nov–30 Nov', value: 29 + 30 });
    expect(text).toMatch(/^Crawler visits: Visits 3 on 1 Nov–2 Nov to 59 on 29 Nov–30 Nov, low 3, high 59$/);
  });

  it('takes a running total’s latest figure per period', () => {
    const { block } = dayChart({
      type: 'area',
      title: mrkdwn`AI Pages used`,
      longSpan: 'latest',
      dayLabel,
      series: [{ name: mrkdwn`Used`, days: days(25, (i) => 10 * (i + 1)) }],
    });
    if (block?.chart.type === 'pie' || !block) throw new Error('expected a series chart');
    const data = block.chart.series[0]!.data;
    // 25 days in periods of 2 from the newest: the oldest period holds one day.
    expect(data).toHaveLength(13);
    expect(data[0]).toEqual({ label: '1 Nov', value: 10 });
    expect(data.at(-1)).toEqual({ label: '24 Nov–25 Nov', value: 250 });
  });

  it('cuts to the last 20 days when asked', () => {
    const { block } = dayChart({
      type: 'line',
      title: mrkdwn`Mentions`,
      longSpan: 'cut',
      dayLabel,
      xLabel: mrkdwn`Day`,
      yLabel: mrkdwn`Mentions`,
      blockId: 'history',
      series: [
        { name: mrkdwn`Acme`, days: days(30) },
        { name: mrkdwn`Rival`, days: days(5, () => 7, 25) },
      ],
    });
    if (block?.chart.type === 'pie' || !block) throw new Error('expected a series chart');
    expect(block.block_id).toBe('history');
    expect(block.chart.axis_config).toMatchObject({ x_label: 'Day', y_label: 'Mentions' });
    expect(block.chart.axis_config.categories[0]).toBe('11 Nov');
    expect(block.chart.series.map((s) => s.data.length)).toEqual([20, 5]);
  });

  it('has no block for series without figures', () => {
    const chart = dayChart({
      type: 'line',
      title: mrkdwn`Nothing yet`,
      longSpan: 'cut',
      dayLabel,
      series: [{ name: mrkdwn`Acme`, days: [] }],
    });
    expect(chart.block).toBeUndefined();
    expect(chart.text).toBe('Nothing yet: no data');
  });
});
