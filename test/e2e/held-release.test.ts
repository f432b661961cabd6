/**
 * Held alerts are posted as soon as their hold is lifted, by the relay `serve` runs, not by
 * the next job run: `unmute`, `quiet=off` (typed or in the settings form) and Undo snooze.
 * The service and the scheduler's relay run in this process on the harness's clock; the
 * relay's loop waits an hour between drains, so a post that arrives at all arrives because
 * the lift nudged it. Each post is waited for as an event; "once" is checked after a later
 * run that drains again. (serve-held-release.test.ts does the same against a spawned
 * `serve` with its default loop.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMessage, StoredView } from '../../src/dev/local-slack/index.js';
import { createScheduler, type Scheduler } from '../../src/jobs/scheduler.js';
import { acme, HOUR_MS, messageText, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();
let scheduler: Scheduler;

type Block = Record<string, unknown>;

beforeAll(() => {
  // Ticks come from nobody (external, never fired): only the relay loop runs.
  scheduler = createScheduler(h.deps, {
    ticks: 'external',
    catchUpOnStart: false,
    relayIntervalMs: 3_600_000,
    relay: { paceMs: 20 },
  });
  scheduler.start();
});
afterAll(async () => {
  await scheduler?.stop();
});

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
/** Quiet hours around the bot's now, in UTC. */
const quietNow = () => `tz=UTC quiet=${hhmm(h.botClock.now() - HOUR_MS)}-${hhmm(h.botClock.now() + HOUR_MS)}`;

/** The alert posts in `channel` once there are `count` of them. */
const postsUntil = (channel: string, count: number): Promise<StoredMessage[]> =>
  h.slack.waitFor(() => h.posts(channel).length >= count && h.posts(channel), 10_000);

/** A channel subscribed to Acme's alerts while its AI Pages usage is low: no alert yet. */
async function subscribed(channel: string): Promise<string> {
  h.sim.control.setAiPagesUsage(acme.id, { percentageUsed: 10, resetDate: '2031-01-01T00:00:00Z' });
  const ch = h.channel(channel);
  await h.command('subscribe "Acme Analytics" alerts', ch);
  return ch;
}

/** Usage passes 80 %, and a run writes the alert (held, if something holds it). */
async function alertRun(percent = 85): Promise<void> {
  h.sim.control.setAiPagesUsage(acme.id, { percentageUsed: percent, resetDate: '2031-01-01T00:00:00Z' });
  await h.runJobs('ai-pages');
}

/** Another run that drains the outbox again (and finds nothing new): proof of "once". */
async function drainAgain(channel: string, expected: number): Promise<void> {
  await h.runJobs('ai-pages');
  expect(h.posts(channel)).toHaveLength(expected);
}

describe('held alerts are posted when the hold is lifted, by the running relay', () => {
  it('unmute: posted at once, once', async () => {
    const ch = await subscribed('CRELMUTE');
    await h.command('mute "Acme Analytics" 1d', ch);
    await alertRun();
    expect(h.posts(ch)).toEqual([]);

    const reply = await h.command('unmute "Acme Analytics"', ch);
    expect(reply.text).toContain('The held alert message is being posted now.');
    const [posted] = await postsUntil(ch, 1);
    expect(messageText(posted!)).toContain('AI Pages usage passed 80 %');
    await drainAgain(ch, 1);
  });

  it('unmute inside quiet hours: says until when they still wait, then quiet=off posts them', async () => {
    const ch = await subscribed('CRELQUIET');
    await h.command(`settings "Acme Analytics" ${quietNow()}`, ch);
    await h.command('mute "Acme Analytics" 1d', ch);
    await alertRun();

    const reply = await h.command('unmute "Acme Analytics"', ch);
    expect(reply.text).toContain('1 held alert message waits for quiet hours, until');
    expect(reply.text).not.toContain('being posted now');

    const off = await h.command('settings "Acme Analytics" quiet=off', ch);
    expect(off.text).toContain('The held alert message is being posted now.');
    const [posted] = await postsUntil(ch, 1);
    expect(messageText(posted!)).toContain('AI Pages usage passed 80 %');
    await drainAgain(ch, 1);
  });

  it('quiet hours cleared in the settings form: posted at once, once', async () => {
    const ch = await subscribed('CRELFORM');
    await h.command(`settings "Acme Analytics" ${quietNow()}`, ch);
    await alertRun();
    expect(h.posts(ch)).toEqual([]);

    await h.command('settings "Acme Analytics"', ch);
    const view: StoredView = await h.slack.waitFor(
      () =>
        h.slack
          .views()
          .filter((v) => v.callback_id === 'vis:settings:save' && !v.closed)
          .at(-1),
      5000,
    );
    const values: Record<string, Record<string, unknown>> = {};
    for (const b of view.blocks as Block[]) {
      if (b['type'] !== 'input') continue;
      const el = b['element'] as Block;
      const state: Block = { type: el['type'] };
      if (el['type'] === 'plain_text_input') state['value'] = el['initial_value'] ?? null;
      // Both quiet-hours pickers emptied: no quiet hours.
      if (el['type'] === 'timepicker')
        state['selected_time'] = String(b['block_id']).startsWith('settings_quiet')
          ? null
          : (el['initial_time'] ?? null);
      if (el['type'] === 'static_select') state['selected_option'] = el['initial_option'] ?? null;
      if (el['type'] === 'checkboxes') state['selected_options'] = el['initial_options'] ?? [];
      values[String(b['block_id'])] = { [String(el['action_id'])]: state };
    }
    const res = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:settings:save',
      viewId: view.id,
      values,
    });
    expect(res.status).toBe(200);
    const [posted] = await postsUntil(ch, 1);
    expect(messageText(posted!)).toContain('AI Pages usage passed 80 %');
    expect((await h.deps.store.subscriptions.get(ch, acme.id))!.settings.quietHours).toBeNull();
    await drainAgain(ch, 1);
  });

  it('Undo snooze: what the snooze held is posted at once, once', async () => {
    const ch = await subscribed('CRELSNOOZE');
    await alertRun(85);
    const [first] = await postsUntil(ch, 1);
    const snooze = await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:alert:snooze',
      channelId: ch,
      messageTs: first!.ts,
    });
    await h.slack.waitFor(() => h.slack.responsesFor(snooze.responseUrlId)[0], 5000);
    const note = await h.slack.waitFor(
      () => h.notes(ch).find((n) => messageText(n).includes('snoozed')),
      5000,
    );

    // The next level is held by the snooze.
    await alertRun(95);
    expect(h.posts(ch)).toHaveLength(1);

    const undo = await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:alert:unsnooze',
      channelId: ch,
      messageTs: note.ts,
    });
    const lifted = (await h.slack.waitFor(() => h.slack.responsesFor(undo.responseUrlId)[0], 5000)).body as {
      text: string;
    };
    expect(lifted.text).toContain('The held alert message is being posted now.');
    const posts = await postsUntil(ch, 2);
    expect(messageText(posts[1]!)).toContain('AI Pages usage passed 90 %');
    await drainAgain(ch, 2);
  });
});
