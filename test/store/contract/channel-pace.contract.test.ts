/** ChannelPaceRepo on both backends: one send slot per channel, shared by every process. */
import { expect, it } from 'vitest';
import type { ChannelPaceRepo } from '../../../src/store/channel-pace-repo.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const PACE = 1000;
const T = 1_700_000_000_000;

const repoOn = (b: TestBackend): ChannelPaceRepo => b.store().channelPace;

describeBackends('channel pace', (backend) => {
  it('gives a free slot, then refuses until paceMs later, then gives it again', async () => {
    const repo = repoOn(backend());
    expect(await repo.readyAt('C1')).toBe(0);
    expect(await repo.reserve('C1', T, PACE)).toEqual({ ok: true });
    expect(await repo.readyAt('C1')).toBe(T + PACE);
    expect(await repo.reserve('C1', T + 1, PACE)).toEqual({ ok: false, readyAt: T + PACE });
    expect(await repo.reserve('C1', T + PACE - 1, PACE)).toEqual({ ok: false, readyAt: T + PACE });
    expect(await repo.reserve('C1', T + PACE, PACE)).toEqual({ ok: true });
    expect(await repo.readyAt('C1')).toBe(T + 2 * PACE);
  });

  it('paces each channel on its own', async () => {
    const repo = repoOn(backend());
    expect(await repo.reserve('C1', T, PACE)).toEqual({ ok: true });
    expect(await repo.reserve('C2', T, PACE)).toEqual({ ok: true });
    expect(await repo.reserve('C2', T + 10, PACE)).toEqual({ ok: false, readyAt: T + PACE });
    expect(await repo.readyAt('C3')).toBe(0);
  });

  it('called: the next post waits paceMs after the call ended, never less than the reservation', async () => {
    const repo = repoOn(backend());
    await repo.reserve('C1', T, PACE);
    // A slow call (2.5 s): the pace runs from its end.
    await repo.called('C1', T + 2500, PACE);
    expect(await repo.reserve('C1', T + PACE, PACE)).toEqual({ ok: false, readyAt: T + 2500 + PACE });
    // A call recorded late with an earlier end does not pull the slot back.
    await repo.called('C1', T + 100, PACE);
    expect(await repo.readyAt('C1')).toBe(T + 2500 + PACE);
    // A channel never reserved can be recorded too (a post made by an older process).
    await repo.called('C9', T, PACE);
    expect(await repo.readyAt('C9')).toBe(T + PACE);
  });

  it('blockUntil holds the channel until then and never makes the slot earlier', async () => {
    const repo = repoOn(backend());
    await repo.blockUntil('C1', T + 30_000);
    expect(await repo.reserve('C1', T, PACE)).toEqual({ ok: false, readyAt: T + 30_000 });
    await repo.blockUntil('C1', T + 5000);
    expect(await repo.readyAt('C1')).toBe(T + 30_000);
    await repo.called('C1', T + 1000, PACE);
    expect(await repo.readyAt('C1')).toBe(T + 30_000);
    expect(await repo.reserve('C1', T + 29_999, PACE)).toMatchObject({ ok: false });
    expect(await repo.reserve('C1', T + 30_000, PACE)).toEqual({ ok: true });
  });

  it('a reservation whose post never came (its process died) simply expires after paceMs', async () => {
    await repoOn(backend()).reserve('C1', T, PACE);
    const survivor = repoOn(backend().other());
    expect(await survivor.reserve('C1', T + 500, PACE)).toEqual({ ok: false, readyAt: T + PACE });
    expect(await survivor.reserve('C1', T + PACE, PACE)).toEqual({ ok: true });
  });

  it('is shared by every connection to the database', async () => {
    await repoOn(backend()).blockUntil('C1', T + 60_000);
    expect(await repoOn(backend().other()).reserve('C1', T, PACE)).toEqual({
      ok: false,
      readyAt: T + 60_000,
    });
  });

  it('of four connections reserving one free slot at once, exactly one gets it', async () => {
    const b = backend();
    const repos = [b, b.other(), b.other(), b.other()].map(repoOn);
    // Rounds: a slot never used (the row is inserted) and one that has just freed (updated).
    for (const at of [T, T + PACE]) {
      const turns = await Promise.all(repos.map((r) => r.reserve('C1', at, PACE)));
      expect(turns.filter((t) => t.ok)).toHaveLength(1);
      for (const t of turns.filter((x) => !x.ok)) expect(t).toEqual({ ok: false, readyAt: at + PACE });
    }
  });

  it('inside a transaction that rolls back, reserves and records nothing', async () => {
    const b = backend();
    const repo = repoOn(b);
    await expect(
      b.transaction(async () => {
        expect(await repo.reserve('C1', T, PACE)).toEqual({ ok: true });
        await repo.blockUntil('C2', T + 60_000);
        throw new Error('the delivery failed');
      }),
    ).rejects.toThrow('the delivery failed');
    expect(await repo.reserve('C1', T + 1, PACE)).toEqual({ ok: true });
    expect(await repo.readyAt('C2')).toBe(0);
  });
});
