/**
 * AlertStatesRepo on both backends: a posted alert's owner and outcome, changed only from
 * the state a click expects (a second resolve changes nothing), recurrence links, the
 * history lists and the purge the housekeeping calls.
 */
import { expect, it } from 'vitest';
import type { AlertStatesRepo, PostedAlert } from '../../../src/store/alert-states-repo.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const repoOn = (b: TestBackend): AlertStatesRepo => b.store().alertStates;

const posted = (outboxId: number, over: Partial<PostedAlert> = {}): PostedAlert => ({
  outboxId,
  channelId: 'C1',
  messageTs: `100.${outboxId}`,
  brandId: 'b1',
  headline: 'Acme: Cited page lost',
  kinds: ['citation_lost'],
  alertCount: 1,
  postedAtMs: outboxId * 1000,
  subjects: [`citation_lost:https://a.example/${outboxId}`],
  ...over,
});

describeBackends('alert states', (backend) => {
  it('records a posted alert once, found by id and by its message', async () => {
    const repo = repoOn(backend());
    const first = await repo.recordPosted(posted(1));
    expect(first.created).toBe(true);
    expect(first.state).toMatchObject({
      outboxId: 1,
      channelId: 'C1',
      messageTs: '100.1',
      kinds: ['citation_lost'],
    });
    const again = await repo.recordPosted(posted(1, { messageTs: '999.9' }));
    expect(again).toEqual({ state: first.state, created: false });
    expect(await repo.get(first.state.id)).toEqual(first.state);
    expect(await repo.findByMessage('C1', '100.1')).toEqual(first.state);
    expect(await repo.findByMessage('C2', '100.1')).toBeNull();
  });

  it('assigns, resolves once with a note, reopens; each change only from the state it expects', async () => {
    const repo = repoOn(backend());
    const { state } = await repo.recordPosted(posted(1));
    const assigned = await repo.assign(state.id, { assigneeId: 'U2', byUserId: 'U1', atMs: 5000 });
    expect(assigned).toMatchObject({
      assigneeId: 'U2',
      assignedBy: 'U1',
      acknowledgedBy: 'U1',
      acknowledgedAtMs: 5000,
    });
    expect(await repo.assign(state.id, { assigneeId: 'U2', byUserId: 'U3', atMs: 6000 })).toBeNull();
    const resolved = await repo.resolve(state.id, { byUserId: 'U3', note: 'restored <b>', atMs: 9000 });
    // The first acknowledgement stays.
    expect(resolved).toMatchObject({
      resolvedBy: 'U3',
      resolvedAtMs: 9000,
      resolveNote: 'restored <b>',
      acknowledgedBy: 'U1',
    });
    expect(resolved!.version).toBeGreaterThan(assigned!.version);
    expect(await repo.resolve(state.id, { byUserId: 'U4', note: 'again', atMs: 9500 })).toBeNull();
    expect(await repo.assign(state.id, { assigneeId: 'U5', byUserId: 'U1', atMs: 9600 })).toBeNull();
    expect(await repo.acknowledge(state.id, { byUserId: 'U9', atMs: 9700 })).toBeNull();
    const reopened = await repo.reopen(state.id, { byUserId: 'U1', atMs: 10_000 });
    expect(reopened).toMatchObject({ resolvedAtMs: null, resolveNote: null, assigneeId: 'U2' });
    expect(await repo.reopen(state.id, { byUserId: 'U1', atMs: 10_001 })).toBeNull();
  });

  it('of two resolves at once exactly one wins', async () => {
    const repo = repoOn(backend());
    const { state } = await repo.recordPosted(posted(1));
    const results = await Promise.all(
      ['U1', 'U2', 'U3'].map((u, i) => repo.resolve(state.id, { byUserId: u, note: u, atMs: 100 + i })),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('a recurring subject links to the newest earlier alert of the channel and brand and keeps its owner', async () => {
    const repo = repoOn(backend());
    const url = 'citation_lost:https://a.example/pricing';
    const a = (await repo.recordPosted(posted(1, { subjects: [url] }))).state;
    await repo.assign(a.id, { assigneeId: 'U2', byUserId: 'U1', atMs: 1500 });
    await repo.resolve(a.id, { byUserId: 'U2', note: 'fixed', atMs: 1800 });
    // Another channel, or another brand, about the same URL: not the same alert.
    const other = (await repo.recordPosted(posted(2, { channelId: 'C2', subjects: [url] }))).state;
    expect(other.previousId).toBeNull();
    const b = (await repo.recordPosted(posted(3, { subjects: [url, 'citation_lost:https://a.example/x'] })))
      .state;
    expect(b).toMatchObject({ previousId: a.id, assigneeId: 'U2', assignedBy: null, resolvedAtMs: null });
    const c = (await repo.recordPosted(posted(4, { subjects: [url] }))).state;
    expect(c.previousId).toBe(b.id);
  });

  it('lists a brand’s alerts by state and age, paged; open, opened and resolved in a window', async () => {
    const repo = repoOn(backend());
    const ids: number[] = [];
    for (let i = 1; i <= 5; i += 1) ids.push((await repo.recordPosted(posted(i))).state.id);
    await repo.recordPosted(posted(6, { brandId: 'b2' }));
    await repo.resolve(ids[1]!, { byUserId: 'U1', note: '', atMs: 2500 });
    await repo.resolve(ids[3]!, { byUserId: 'U1', note: '', atMs: 4500 });
    const page1 = await repo.list({ brandId: 'b1', filter: 'all', sinceMs: 0, offset: 0, limit: 2 });
    expect(page1.total).toBe(5);
    expect(page1.states.map((s) => s.outboxId)).toEqual([5, 4]);
    const page2 = await repo.list({ brandId: 'b1', filter: 'all', sinceMs: 0, offset: 2, limit: 2 });
    expect(page2.states.map((s) => s.outboxId)).toEqual([3, 2]);
    const open = await repo.list({ brandId: 'b1', filter: 'open', sinceMs: 0, offset: 0, limit: 10 });
    expect(open.states.map((s) => s.outboxId)).toEqual([5, 3, 1]);
    const resolved = await repo.list({
      brandId: 'b1',
      filter: 'resolved',
      sinceMs: 3000,
      offset: 0,
      limit: 10,
    });
    expect(resolved).toMatchObject({ total: 1, states: [{ outboxId: 4 }] });
    expect((await repo.listOpened(2000, 4000)).map((s) => s.outboxId)).toEqual([2, 3]);
    expect((await repo.listOpened(0, 10_000, 'C2')).map((s) => s.outboxId)).toEqual([]);
    expect((await repo.listResolved(0, 10_000, 'C1')).map((s) => s.outboxId)).toEqual([2, 4]);
    expect((await repo.listOpen(['b2'])).map((s) => s.outboxId)).toEqual([6]);
    expect((await repo.listOpen()).map((s) => s.outboxId)).toEqual([1, 3, 5, 6]);
    expect(await repo.listOpen([])).toEqual([]);
  });

  it('purges alerts whose last news is older than the cutoff, with their subjects', async () => {
    const repo = repoOn(backend());
    const a = (await repo.recordPosted(posted(1))).state;
    const b = (await repo.recordPosted(posted(2))).state;
    await repo.recordPosted(posted(5));
    // Posted before the cutoff but resolved after it: still news.
    await repo.resolve(b.id, { byUserId: 'U1', note: '', atMs: 6000 });
    expect(await repo.purgeBefore(3000)).toBe(1);
    expect(await repo.get(a.id)).toBeNull();
    expect(await repo.get(b.id)).not.toBeNull();
    // Its subject is gone too: the same URL again starts a new chain.
    const again = (await repo.recordPosted(posted(7, { subjects: posted(1).subjects }))).state;
    expect(again.previousId).toBeNull();
  });

  it('keeps the permalink and the assignee’s copy', async () => {
    const repo = repoOn(backend());
    const { state } = await repo.recordPosted(posted(1));
    await repo.setPermalink(state.id, 'https://x.slack.com/archives/C1/p1001');
    await repo.setDirectMessage(state.id, 'D1', '200.1');
    expect(await repo.get(state.id)).toMatchObject({
      permalink: 'https://x.slack.com/archives/C1/p1001',
      dmChannelId: 'D1',
      dmTs: '200.1',
    });
  });
});
