/**
 * The relay's pacer over the shared slots (channel-pace-repo.ts, a real SQLite file): the
 * database decides who may post, and what this process learned only ever holds it back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChannelPacer } from '../../src/jobs/channel-pacer.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { type TempDb, tempDb } from '../store/temp-db.js';

const PACE = 1000;
const T = 1_700_000_000_000;

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

describe('channel pacer', () => {
  it('paces from the end of the call, and another process sees the same slot', async () => {
    const pacer = createChannelPacer(createSqliteStore(t.db).channelPace, { paceMs: PACE });
    const elsewhere = createChannelPacer(createSqliteStore(t.open()).channelPace, { paceMs: PACE });
    expect(await pacer.reserve('C1', T)).toEqual({ ok: true });
    await pacer.called('C1', T + 300);
    expect(await pacer.reserve('C1', T + PACE)).toEqual({ ok: false, readyAt: T + 300 + PACE });
    expect(await elsewhere.reserve('C1', T + PACE)).toEqual({ ok: false, readyAt: T + 300 + PACE });
    expect(await elsewhere.reserve('C1', T + 300 + PACE)).toEqual({ ok: true });
    // The other process took it: this one, asking at the same moment, is refused.
    expect(await pacer.reserve('C1', T + 300 + PACE)).toEqual({
      ok: false,
      readyAt: T + 300 + 2 * PACE,
    });
  });

  it('a 429 from one process holds the channel for another', async () => {
    const pacer = createChannelPacer(createSqliteStore(t.db).channelPace, { paceMs: PACE });
    const elsewhere = createChannelPacer(createSqliteStore(t.open()).channelPace, { paceMs: PACE });
    await pacer.blockUntil('C1', T + 30_000);
    expect(await elsewhere.reserve('C1', T)).toEqual({ ok: false, readyAt: T + 30_000 });
    expect(await elsewhere.reserve('C1', T + 30_000)).toEqual({ ok: true });
  });

  it('when the database cannot record a call, says so, and still holds the channel back itself', async () => {
    const errors: string[] = [];
    const pacer = createChannelPacer(createSqliteStore(t.db).channelPace, {
      paceMs: PACE,
      onError: (err, channel) => errors.push(`${channel}: ${(err as Error).message}`),
    });
    expect(await pacer.reserve('C1', T)).toEqual({ ok: true });
    t.db.close();
    // Resolves: the post has been made; its outcome must not turn into a database error.
    await pacer.called('C1', T + 200);
    await pacer.blockUntil('C1', T + 5000);
    expect(errors).toEqual([
      expect.stringMatching(/^C1: .*not open/),
      expect.stringMatching(/^C1: .*not open/),
    ]);
    // Answered from memory, without the database: no early post from this process.
    expect(await pacer.reserve('C1', T + 1500)).toEqual({ ok: false, readyAt: T + 5000 });
  });
});
