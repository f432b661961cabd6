/**
 * HTTP mode behind a load balancer (issue 13): two replicas of the service, each with its
 * own process state (brand cache, background work, guest cache), on one Postgres database,
 * in front of one simulator and one local Slack. A conversation that starts on one replica
 * and continues on the other (a modal submitted, a button on a message the other posted,
 * Slack's retry of a request) behaves as with one replica.
 */
import { describe, expect, it, vi } from 'vitest';
import type { StoredMessage, StoredView } from '../../src/dev/local-slack/index.js';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { runJobs } from '../../src/jobs/run-jobs.js';
import { CHANNEL_NOTE_EVENT } from '../../src/slack/features/subscriptions/post-channel-note.js';
import { manualClock } from '../helpers/manual-clock.js';
import { type Replica, useSlackReplicas } from './slack-replicas-harness.js';

type Json = Record<string, unknown>;
const { acme } = SEED_BRANDS;
const USER = 'U0LOCALUSR';
const DAY_MS = 86_400_000;
// The simulator's clock moves when the test says: a content-ideas generation ends then, and
// each new daily snapshot is on a new day, as in the real service.
const simClock = manualClock(Date.now());
const r = useSlackReplicas({ simulator: { clock: simClock, generationMs: 60_000 } });
const A = (): Replica => r.replicas[0]!;
const B = (): Replica => r.replicas[1]!;

function channel(id: string): string {
  r.slack.addChannel({ id, name: id.toLowerCase(), isMember: true });
  return id;
}

/** `/visibility <text>` sent to `replica`; the first reply on its response_url. */
async function command(replica: Replica, text: string, channelId: string): Promise<{ text: string }> {
  const res = await r.slack.slashCommand(replica.appUrl, { text, channelId });
  expect(res.status).toBe(200);
  const post = await r.slack.waitFor(() => r.slack.responsesFor(res.responseUrlId)[0], 8000);
  expect(post.error, JSON.stringify(post.errors)).toBeUndefined();
  return post.body as { text: string };
}

const notes = (ch: string) =>
  r.slack.messages(ch).filter((m) => m.metadata?.event_type === CHANNEL_NOTE_EVENT);
const alerts = (ch: string) =>
  r.slack
    .messages(ch)
    .filter((m) => m.via === 'chat.postMessage' && m.metadata?.event_type !== CHANNEL_NOTE_EVENT);
const textOf = (m: StoredMessage) => `${m.text ?? ''}\n${JSON.stringify(m.blocks ?? [])}`;
const logged = (replica: Replica, code: string) => replica.logLines.filter((l) => l.includes(code));

/** What Slack submits for the form with `changes` laid over each input's initial value. */
function formValues(
  view: StoredView,
  changes: Record<string, Json>,
): Record<string, Record<string, unknown>> {
  const values: Record<string, Record<string, unknown>> = {};
  for (const b of view.blocks as Json[]) {
    if (b['type'] !== 'input') continue;
    const el = b['element'] as Json;
    const state: Json = { type: el['type'] };
    if (el['type'] === 'plain_text_input') state['value'] = el['initial_value'] ?? null;
    if (el['type'] === 'timepicker') state['selected_time'] = el['initial_time'] ?? null;
    if (el['type'] === 'static_select') state['selected_option'] = el['initial_option'] ?? null;
    if (el['type'] === 'checkboxes') state['selected_options'] = el['initial_options'] ?? [];
    const blockId = String(b['block_id']);
    values[blockId] = { [String(el['action_id'])]: { ...state, ...changes[blockId] } };
  }
  return values;
}

describe('two replicas in HTTP mode on one Postgres database', () => {
  it('a settings form opened through A and submitted to B saves the settings and tells the channel', async () => {
    const ch = channel('CREPSET');
    await command(A(), 'subscribe "Acme Analytics" alerts', ch);
    await command(A(), 'settings "Acme Analytics"', ch);
    const view = await r.slack.waitFor(
      () => r.slack.views().find((v) => v.callback_id === 'vis:settings:save' && !v.closed),
      5000,
    );

    const submitted = await r.slack.viewSubmission(B().appUrl, {
      callbackId: 'vis:settings:save',
      viewId: view.id,
      values: formValues(view, { 'settings_crawler-drop': { value: '55' } }),
    });
    expect(submitted.status).toBe(200);
    expect(r.slack.view(view.id)!.closed).toBe(true);
    // Saved in the shared database: A reads what B wrote.
    expect((await A().deps.store.subscriptions.get(ch, acme.id))!.settings.crawlerDropPct).toBe(55);
    const note = await r.slack.waitFor(
      () => notes(ch).find((n) => textOf(n).includes('Crawler drop*: 40 % → 55 %')),
      5000,
    );
    expect(textOf(note)).toContain(`<@${USER}> changed this channel's alert settings for *Acme Analytics*`);
  });

  it('a button on an alert posted by A is handled by B, and the Undo on B’s note by A', async () => {
    const ch = channel('CREPSNOOZE');
    await command(A(), 'subscribe "Acme Analytics" alerts', ch);
    const [lost] = r.sim.control.citationUrls(acme.id);
    simClock.advance(DAY_MS);
    r.sim.control.advanceSnapshot({ lose: [lost!] });
    // A's jobs post the alert (its own Slack client and outbox, the shared database).
    await runJobs(A().deps, 'citations', { relay: { paceMs: 20 }, deliverWaitMs: 10_000 });
    const [alert] = await r.slack.waitFor(() => alerts(ch).length === 1 && alerts(ch), 5000);
    const menu = ((alert!.blocks ?? []) as Json[])
      .filter((b) => String(b['block_id'] ?? '').startsWith('vis:alert:row:'))
      .map((b) => b['accessory'] as Json | undefined)
      .find(Boolean);
    const snooze = await r.slack.blockAction(
      B().appUrl,
      menu
        ? {
            actionId: String(menu['action_id']),
            selectedOption: String(((menu['options'] as Json[])[1] as Json)['value']),
            channelId: ch,
            messageTs: alert!.ts,
          }
        : { actionId: 'vis:alert:snooze', channelId: ch, messageTs: alert!.ts },
    );
    const confirmation = await r.slack.waitFor(() => r.slack.responsesFor(snooze.responseUrlId)[0], 5000);
    expect((confirmation.body as { text: string }).text).toContain(
      'Lost-page alerts for *Acme Analytics* are snoozed',
    );
    const now = A().deps.clock.now();
    expect([...(await A().deps.store.snoozes.active(ch, acme.id, now)).keys()]).toEqual(['citation_lost']);
    const snoozeNote = await r.slack.waitFor(
      () => notes(ch).find((n) => textOf(n).includes('snoozed lost-page alerts')),
      5000,
    );

    // Undo on the note B posted, clicked through A.
    const undo = await r.slack.blockAction(A().appUrl, {
      actionId: 'vis:alert:unsnooze',
      channelId: ch,
      messageTs: snoozeNote.ts,
    });
    const lifted = await r.slack.waitFor(() => r.slack.responsesFor(undo.responseUrlId)[0], 5000);
    expect((lifted.body as { text: string }).text).toContain(
      ':bell: Lost-page alerts for *Acme Analytics* are back on',
    );
    expect((await B().deps.store.snoozes.active(ch, acme.id, B().deps.clock.now())).size).toBe(0);
    const audit = (await B().deps.store.auditLog.recent(10)).map((e) => e.action);
    expect(audit.filter((a) => a === 'alert.snooze')).toHaveLength(1);
    expect(audit.filter((a) => a === 'alert.unsnooze')).toHaveLength(1);
  });

  it('Slack’s retry of a command landing on the other replica is acknowledged and not applied twice', async () => {
    const ch = channel('CREPRETRY');
    const writes = () =>
      r.sim.requests.filter((q) => q.method === 'POST' && q.path === '/get-brands/markets');
    const res = await r.slack.slashCommand(A().appUrl, {
      text: 'markets "Acme Analytics" add FR',
      channelId: ch,
    });
    await r.slack.waitFor(() => r.slack.responsesFor(res.responseUrlId)[0], 8000);
    // The load balancer sends Slack's retry (it thought A timed out) to B.
    const retry = await r.slack.redeliverLast(B().appUrl, { retryNum: 1, retryReason: 'http_timeout' });
    expect(retry.status).toBe(200);
    expect(retry.body).toBe('');
    expect(logged(B(), 'slack_request_redelivered')).toHaveLength(1);
    // And a second retry back on A: the same.
    const again = await r.slack.redeliverLast(A().appUrl, { retryNum: 2, retryReason: 'http_timeout' });
    expect(again.status).toBe(200);
    expect(logged(A(), 'slack_request_redelivered')).toHaveLength(1);

    expect(writes()).toHaveLength(1);
    expect(r.slack.responsesFor(res.responseUrlId)).toHaveLength(1);
    const audit = await A().deps.store.auditLog.recent(10);
    expect(audit.filter((e) => e.brandId === acme.id)).toHaveLength(1);
  });

  it('a click sent to both replicas at once (a retry racing the original) is applied once', async () => {
    const ch = channel('CREPRACE');
    await command(A(), 'subscribe "Acme Analytics" alerts', ch);
    const [lost] = r.sim.control.citationUrls(acme.id);
    simClock.advance(DAY_MS);
    r.sim.control.advanceSnapshot({ lose: [lost!] });
    await runJobs(B().deps, 'citations', { relay: { paceMs: 20 }, deliverWaitMs: 10_000 });
    const [alert] = await r.slack.waitFor(() => alerts(ch).length === 1 && alerts(ch), 5000);
    const first = await r.slack.blockAction(A().appUrl, {
      actionId: 'vis:alert:ack',
      value: 'group',
      channelId: ch,
      messageTs: alert!.ts,
    });
    // The same payload, byte for byte, as Slack's retry: to B and to A together.
    const retries = await Promise.all([
      r.slack.redeliverLast(B().appUrl, { retryNum: 1 }),
      r.slack.redeliverLast(A().appUrl, { retryNum: 2 }),
    ]);
    expect(first.status).toBe(200);
    expect(retries.map((x) => x.status)).toEqual([200, 200]);
    // Both retries were dropped before any listener ran (the guard answers only after deciding).
    const dropped = [
      ...logged(A(), 'slack_request_redelivered'),
      ...logged(B(), 'slack_request_redelivered'),
    ];
    expect(dropped).toHaveLength(2);
    const acks = async () =>
      (await A().deps.store.auditLog.recent(20)).filter((e) => e.action === 'alert.acknowledge');
    await r.slack.waitFor(() => r.slack.callsTo('chat.update').length >= 1 || undefined, 5000);
    await vi.waitFor(async () => expect(await acks()).toHaveLength(1), { timeout: 5000 });
    expect(r.slack.callsTo('chat.update')).toHaveLength(1);
  });
});

describe('process-local caches behind a load balancer', () => {
  it('an alias added through A names the brand on B at once, though B cached the brand list before', async () => {
    const ch = channel('CREPALIAS');
    // B's brand cache now holds the list without the alias.
    expect((await command(B(), 'ideas "Acme Analytics"', ch)).text).toContain('Acme Analytics');
    expect((await command(A(), 'aliases "Acme Analytics" add Zephyrwind', ch)).text).toContain('Zephyrwind');
    const gets = () => r.sim.requests.filter((q) => q.method === 'GET' && q.path === '/get-brands').length;
    const before = gets();
    const reply = await command(B(), 'ideas Zephyrwind', ch);
    expect(reply.text).not.toContain('No brand called');
    expect(reply.text).toContain('Acme Analytics');
    // One fresh list for the miss; a name B knows costs nothing more.
    expect(gets()).toBe(before + 1);
    await command(B(), 'ideas "Acme Analytics"', ch);
    expect(gets()).toBe(before + 1);
  });
});

describe('a content-ideas refresh started on A', () => {
  it('is finished in place by B’s *Check now*, without A’s watch', async () => {
    const ch = channel('CREPIDEAS');
    const res = await r.slack.slashCommand(A().appUrl, {
      text: 'ideas "Acme Analytics" refresh',
      channelId: ch,
    });
    const started = await r.slack.waitFor(() => r.slack.responsesFor(res.responseUrlId)[0], 8000);
    expect((started.body as { text: string }).text).toContain('Generating fresh content ideas');
    const check = async () => {
      const click = await r.slack.blockAction(B().appUrl, {
        actionId: 'vis:ideas:check',
        responseUrlId: res.responseUrlId,
        channelId: ch,
      });
      expect(click.status).toBe(200);
      const n = r.slack.responsesFor(res.responseUrlId).length;
      return (await r.slack.waitFor(() => r.slack.responsesFor(res.responseUrlId)[n], 8000)).body as {
        text: string;
        replace_original?: boolean;
        blocks: unknown[];
      };
    };
    // Still generating: B says so in the same message, keeping the button.
    const early = await check();
    expect(early.replace_original).toBe(true);
    expect(early.text).toContain('still being generated');
    expect(JSON.stringify(early.blocks)).toContain('vis:ideas:check');

    // The run is over: B writes the fresh ideas into the message A posted.
    simClock.advance(60_000);
    const done = await check();
    expect(done.replace_original).toBe(true);
    expect(done.text).toContain('Fresh content ideas are ready');
    expect(JSON.stringify(done.blocks)).not.toContain('vis:ideas:check');
    expect(r.sim.requests.filter((q) => q.method === 'POST' && q.path === '/get-content-ideas')).toHaveLength(
      1,
    );
  });
});
