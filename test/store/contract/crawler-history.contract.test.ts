/** CrawlerHistoryRepo on both backends: each brand's daily AI crawler visits, merged and trimmed. */
import { expect, it } from 'vitest';
import { CRAWLER_HISTORY_DAYS, mergeCrawlerHistory } from '../../../src/store/crawler-history-repo.js';
import { addDays } from '../../../src/utc-days.js';
import { describeBackends } from './store-backends.js';

const T = 1_700_000_000_000;
const END = '2026-11-27';

describeBackends('crawler history', (backend) => {
  it('merges runs (a day read again replaces the stored count) and keeps brands apart', async () => {
    const repo = backend().store().crawlerHistory;
    expect(await repo.get('b1')).toEqual({});
    await repo.record('b1', { '2026-11-25': 10, '2026-11-26': 12 }, '2026-11-26', T);
    const merged = await repo.record('b1', { '2026-11-26': 14, [END]: 9 }, END, T + 1);
    expect(merged).toEqual({ '2026-11-25': 10, '2026-11-26': 14, [END]: 9 });
    expect(await repo.get('b1')).toEqual(merged);
    expect(await repo.get('b2')).toEqual({});
    // The channels' detector states share the table and are not touched.
    await backend()
      .store()
      .channelDetectorState.putCrawler('C1', 'b1', { dropping: true, episode: 1, lastChangePct: -50 }, T);
    expect(await backend().store().channelDetectorState.getCrawler('C1', 'b1')).toMatchObject({
      dropping: true,
    });
    expect(await repo.get('b1')).toEqual(merged);
  });

  it(`keeps only the last ${CRAWLER_HISTORY_DAYS} days, in date order`, async () => {
    const repo = backend().store().crawlerHistory;
    const days = Object.fromEntries(Array.from({ length: 90 }, (_, i) => [addDays(END, -i), i]));
    const kept = await repo.record('b1', days, END, T);
    expect(Object.keys(kept)).toHaveLength(CRAWLER_HISTORY_DAYS);
    expect(Object.keys(kept)[0]).toBe(addDays(END, 1 - CRAWLER_HISTORY_DAYS));
    expect(Object.keys(kept).at(-1)).toBe(END);
  });

  it('writes a history merged beforehand as record would have stored it', async () => {
    const repo = backend().store().crawlerHistory;
    await repo.record('b1', { '2026-11-25': 10, '2026-11-26': 12 }, '2026-11-26', T);
    const merged = mergeCrawlerHistory(await repo.get('b1'), { '2026-11-26': 14, [END]: 9 }, END);
    await repo.write('b1', merged, T + 1);
    expect(await repo.get('b1')).toEqual({ '2026-11-25': 10, '2026-11-26': 14, [END]: 9 });
    expect(await repo.get('b2')).toEqual({});
    // Several brands in one statement, the last of a brand winning.
    await repo.writeMany([]);
    await repo.writeMany([
      { brandId: 'b2', history: { [END]: 1 }, nowMs: T },
      { brandId: 'b3', history: { [END]: 3 }, nowMs: T },
      { brandId: 'b2', history: { [END]: 2 }, nowMs: T + 1 },
    ]);
    expect(await repo.get('b2')).toEqual({ [END]: 2 });
    expect(await repo.get('b3')).toEqual({ [END]: 3 });
    expect(await repo.get('b1')).toEqual(merged);
  });

  it('reads several brands in one call: each its own history, an empty one for a brand with none', async () => {
    const repo = backend().store().crawlerHistory;
    expect(await repo.getMany([])).toEqual(new Map());
    await repo.writeMany([
      { brandId: 'b1', history: { [END]: 1 }, nowMs: T },
      { brandId: 'b2', history: { '2026-11-26': 4, [END]: 2 }, nowMs: T },
    ]);
    await backend()
      .store()
      .channelDetectorState.putCrawler('C1', 'b3', { dropping: true, episode: 1, lastChangePct: -50 }, T);
    expect(await repo.getMany(['b2', 'b3', 'b1'])).toEqual(
      new Map([
        ['b2', { '2026-11-26': 4, [END]: 2 }],
        ['b3', {}],
        ['b1', { [END]: 1 }],
      ]),
    );
  });

  it('reads a damaged row as no history rather than failing the job', async () => {
    const b = backend();
    await b.exec(
      "INSERT INTO detector_snapshots (brand_id, detector, state, updated_at_ms) VALUES ('b1', 'crawler_history', ?, 1)",
      '{"2026-11-26": "lots", "2026-11-27": 5}',
    );
    expect(await b.store().crawlerHistory.get('b1')).toEqual({ '2026-11-27': 5 });
    expect(await b.store().crawlerHistory.getMany(['b1'])).toEqual(new Map([['b1', { '2026-11-27': 5 }]]));
    await b.exec("UPDATE detector_snapshots SET state = ? WHERE brand_id = 'b1'", '[1,2]');
    expect(await b.store().crawlerHistory.get('b1')).toEqual({});
  });
});
