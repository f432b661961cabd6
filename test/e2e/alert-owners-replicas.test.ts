/**
 * Alert owners across replicas: two replicas of the service on one Postgres database. An
 * alert posted by A's relay is assigned through B, its Resolve form opened through B and
 * submitted to A: each redraws the message A posted (by the channel and ts the store
 * keeps), and the state both replicas read is the same.
 */
import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '../../src/dev/local-slack/index.js';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { runJobs } from '../../src/jobs/run-jobs.js';
import { CHANNEL_NOTE_EVENT } from '../../src/slack/features/subscriptions/post-channel-note.js';
import { manualClock } from '../helpers/manual-clock.js';
import { elementOf } from './alert-owners-kit.js';
import { type Replica, useSlackReplicas } from './slack-replicas-harness.js';

const { acme } = SEED_BRANDS;
const USER = 'U0LOCALUSR';
const MAYA = 'U0MAYA';
const simClock = manualClock(Date.now());
const r = useSlackReplicas({ simulator: { clock: simClock } });
const A = (): Replica => r.replicas[0]!;
const B = (): Replica => r.replicas[1]!;

const textOf = (m: StoredMessage | undefined) => `${m?.text ?? ''}\n${JSON.stringify(m?.blocks ?? [])}`;
const notes = (ch: string) =>
  r.slack.messages(ch).filter((m) => m.metadata?.event_type === CHANNEL_NOTE_EVENT);
const posts = (ch: string) =>
  r.slack
    .messages(ch)
    .filter((m) => m.via === 'chat.postMessage' && m.metadata?.event_type !== CHANNEL_NOTE_EVENT);

describe('alert owners on two replicas', () => {
  it('a resolve handled by one replica shows on the message another posted', async () => {
    r.slack.addUser({ id: MAYA, name: 'maya' });
    const ch = 'CREPOWNER';
    r.slack.addChannel({ id: ch, name: 'crepowner', isMember: true });
    const sub = await r.slack.slashCommand(A().appUrl, {
      text: 'subscribe "Acme Analytics" alerts',
      channelId: ch,
    });
    await r.slack.waitFor(() => r.slack.responsesFor(sub.responseUrlId)[0], 8000);
    const [lost] = r.sim.control.citationUrls(acme.id);
    simClock.advance(86_400_000);
    r.sim.control.advanceSnapshot({ lose: [lost!] });
    await runJobs(A().deps, 'citations', { relay: { paceMs: 20 }, deliverWaitMs: 10_000 });
    const alert = await r.slack.waitFor(() => posts(ch)[0], 5000);
    const current = () => r.slack.messages(ch).find((m) => m.ts === alert.ts);

    await r.slack.blockAction(B().appUrl, {
      actionId: String(elementOf(alert, 'vis:alert:assign')!['action_id']),
      selectedUser: MAYA,
      channelId: ch,
      messageTs: alert.ts,
    });
    await r.slack.waitFor(() => textOf(current()).includes(`Assigned to <@${MAYA}>`), 5000);
    // The assignment ends with Maya's copy posted and recorded (after the channel's message
    // shows her): a person sees the assignment done before clicking Resolve.
    const recorded = async () => (await A().deps.store.alertStates.findByMessage(ch, alert.ts))?.dmTs;
    for (let i = 0; i < 250 && !(await recorded()); i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await recorded()).toBeTruthy();

    const views = r.slack.views().length;
    await r.slack.blockAction(B().appUrl, {
      actionId: String(elementOf(current(), 'vis:alert:resolve')!['action_id']),
      channelId: ch,
      messageTs: alert.ts,
    });
    const form = await r.slack.waitFor(() => r.slack.views().length > views && r.slack.views().at(-1), 5000);
    const submitted = await r.slack.viewSubmission(A().appUrl, {
      callbackId: String(form.callback_id),
      viewId: form.id,
      values: { note: { value: { type: 'plain_text_input', value: 'Page restored' } } },
    });
    expect(submitted.status).toBe(200);
    const resolved = await r.slack.waitFor(
      () => textOf(current()).includes('Resolved by') && current(),
      5000,
    );
    expect(textOf(resolved)).toContain(`Resolved by <@${USER}>`);
    expect(textOf(resolved)).toContain('“Page restored”');
    expect(textOf(resolved)).toContain(`Assigned to <@${MAYA}>`);
    await r.slack.waitFor(() => notes(ch).find((n) => textOf(n).includes('resolved')), 5000);
    const onA = await A().deps.store.alertStates.findByMessage(ch, alert.ts);
    const onB = await B().deps.store.alertStates.findByMessage(ch, alert.ts);
    expect(onA).toEqual(onB);
    expect(onA).toMatchObject({ assigneeId: MAYA, resolvedBy: USER, resolveNote: 'Page restored' });
    // One alert message, updated in place.
    expect(posts(ch)).toHaveLength(1);
  });
});
