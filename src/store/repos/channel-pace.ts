/**
 * ChannelPaceRepo (channel-pace-repo.ts has the contract), for both backends. `reserve` is
 * one statement: the insert, or the update of a slot that is free by now, returns the row;
 * a slot still taken returns none. The conflict locks the row and the condition is checked
 * on its newest version, so of several processes reserving at once exactly one gets the
 * slot and the others see it taken.
 */
import type { ChannelPaceRepo } from '../channel-pace-repo.js';
import type { RepoContext } from '../repo-context.js';

export function createChannelPaceRepo(ctx: RepoContext): ChannelPaceRepo {
  const insert = (channelId: string, nextAtMs: number) =>
    ctx.db().insertInto('channel_pace').values({ channel_id: channelId, next_at_ms: nextAtMs });
  /** Moves the slot to `atMs`, never earlier. */
  const later = async (channelId: string, atMs: number) => {
    await insert(channelId, atMs)
      .onConflict((oc) =>
        oc
          .column('channel_id')
          .doUpdateSet((eb) => ({ next_at_ms: eb.ref('excluded.next_at_ms') }))
          .whereRef('channel_pace.next_at_ms', '<', 'excluded.next_at_ms'),
      )
      .execute();
  };
  const readyAt = async (channelId: string) => {
    const r = await ctx
      .db()
      .selectFrom('channel_pace')
      .select('next_at_ms')
      .where('channel_id', '=', channelId)
      .executeTakeFirst();
    return r?.next_at_ms ?? 0;
  };
  return {
    async reserve(channelId, nowMs, paceMs) {
      const taken = await insert(channelId, nowMs + paceMs)
        .onConflict((oc) =>
          oc
            .column('channel_id')
            .doUpdateSet((eb) => ({ next_at_ms: eb.ref('excluded.next_at_ms') }))
            .where('channel_pace.next_at_ms', '<=', nowMs),
        )
        .returning('channel_id')
        .executeTakeFirst();
      if (taken) return { ok: true };
      // Read after the refusal: another process may have moved the slot since; a slot
      // freed in between reads as due now, and the caller simply asks again.
      return { ok: false, readyAt: Math.max(await readyAt(channelId), nowMs) };
    },
    called: (channelId, atMs, paceMs) => later(channelId, atMs + paceMs),
    blockUntil: (channelId, untilMs) => later(channelId, untilMs),
    readyAt,
  };
}
