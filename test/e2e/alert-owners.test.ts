/**
 * Alerts someone owns: Assign and Resolve on a posted alert, through signed requests to the
 * real service and the local Slack. The message is updated in place (found by the channel
 * and ts the store keeps), the channel is told who did what, the assignee gets a copy with
 * the buttons, a note is shown as text; a replayed or forged click changes nothing; and the
 * same page lost again links to its earlier occurrence and goes back to its owner.
 */
import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '../../src/dev/local-slack/index.js';
import { signSlackRequest } from '../../src/dev/local-slack/sign-request.js';
import { elementOf } from './alert-owners-kit.js';
import { acme, messageText, useAlertsHarness } from './alerts-harness.js';

type Json = Record<string, unknown>;
const h = useAlertsHarness();
const USER = 'U0LOCALUSR';
const MAYA = 'U0MAYA';

const stateBlock = (m: StoredMessage | undefined) =>
  ((m?.blocks ?? []) as Json[]).find((b) => b['block_id'] === 'vis:alert:state');

/** The message as the channel sees it now. */
const current = (channel: string, ts: string) => h.slack.messages(channel).find((m) => m.ts === ts);

async function postAlert(channel: string) {
  h.channel(channel);
  await h.command('subscribe "Acme Analytics" alerts', channel);
  const [url] = h.sim.control.citationUrls(acme.id);
  h.advanceSnapshot({ lose: [url!] });
  await h.runJobs('citations');
  const alert = await h.slack.waitFor(() => h.posts(channel)[0], 5000);
  return { alert, url: url! };
}

async function assign(channel: string, ts: string, to: string, userId = USER) {
  const select = elementOf(current(channel, ts), 'vis:alert:assign');
  return h.slack.blockAction(h.appUrl, {
    actionId: String(select!['action_id']),
    selectedUser: to,
    channelId: channel,
    messageTs: ts,
    userId,
  });
}

async function resolveWithNote(channel: string, ts: string, note: string) {
  const button = elementOf(current(channel, ts), 'vis:alert:resolve');
  const views = h.slack.views().length;
  await h.slack.blockAction(h.appUrl, {
    actionId: String(button!['action_id']),
    channelId: channel,
    messageTs: ts,
  });
  const view = await h.slack.waitFor(() => h.slack.views().length > views && h.slack.views().at(-1), 5000);
  return h.slack.viewSubmission(h.appUrl, {
    callbackId: String(view.callback_id),
    viewId: view.id,
    values: { note: { value: { type: 'plain_text_input', value: note } } },
  });
}

describe('owning an alert', () => {
  it('assign, resolve with a note: the message changes in place, the channel and the assignee are told', async () => {
    h.slack.addUser({ id: MAYA, name: 'maya' });
    const ch = 'COWNED1';
    const { alert } = await postAlert(ch);
    expect(elementOf(alert, 'vis:alert:assign')).toMatchObject({ type: 'users_select' });
    expect(elementOf(alert, 'vis:alert:resolve')).toMatchObject({ type: 'button' });

    const res = await assign(ch, alert.ts, MAYA);
    expect(res.status).toBe(200);
    const assigned = await h.slack.waitFor(
      () => stateBlock(current(ch, alert.ts)) && current(ch, alert.ts),
      5000,
    );
    expect(messageText(assigned)).toContain(`Assigned to <@${MAYA}> by <@${USER}>`);
    expect(elementOf(assigned, 'vis:alert:assign')).toMatchObject({ initial_user: MAYA });
    // Still one alert message: updated, not posted again.
    expect(h.posts(ch)).toHaveLength(1);
    const note = await h.slack.waitFor(
      () => h.notes(ch).find((n) => messageText(n).includes('assigned')),
      5000,
    );
    expect(messageText(note)).toContain(`<@${USER}> assigned`);
    expect(messageText(note)).toContain(`to <@${MAYA}>`);
    expect(messageText(note)).toContain('*Acme Analytics*');
    // The assignee's copy: the alert with its buttons, acting on the channel's alert.
    const dm = await h.slack.waitFor(() => h.slack.messages(`D${MAYA.slice(1)}`)[0], 5000);
    expect(messageText(dm)).toContain(`<@${USER}> assigned you this alert in <#${ch}>`);
    expect(elementOf(dm, 'vis:alert:resolve')).toBeDefined();
    expect(elementOf(dm, 'vis:alert:menu')).toBeUndefined();

    // The App Home lists the brand's open alerts and who owns them.
    const published = h.slack.callsTo('views.publish').length;
    await h.slack.event(h.appUrl, {
      type: 'app_home_opened',
      user: USER,
      tab: 'home',
      channel: 'D0LOCALUSR',
    });
    await h.slack.waitFor(() => h.slack.callsTo('views.publish').length > published, 8000);
    const home = JSON.stringify(h.slack.homeView(USER)!.blocks);
    const owned = await h.deps.store.alertStates.findByMessage(ch, alert.ts);
    expect(home).toContain('*Open alerts* (1)');
    expect(home).toContain(`<${owned!.permalink}|Acme Analytics: Cited page lost`);
    expect(home).toContain(`in <#${ch}> since`);
    expect(home).toContain(`owned by <@${MAYA}>`);

    const hostileNote = 'Restored the page <!channel> <@U0EVIL> & <https://evil.example|click>';
    const submitted = await resolveWithNote(ch, alert.ts, hostileNote);
    expect(submitted.status).toBe(200);
    const resolved = await h.slack.waitFor(
      () => messageText(current(ch, alert.ts)!).includes('Resolved by') && current(ch, alert.ts),
      5000,
    );
    const text = messageText(resolved);
    expect(text).toContain(`Resolved by <@${USER}>`);
    expect(text).toContain(
      'Restored the page &lt;!channel&gt; &lt;@U0EVIL&gt; &amp; &lt;https://evil.example|click&gt;',
    );
    expect(text).not.toContain('<!channel>');
    expect(elementOf(resolved, 'vis:alert:reopen')).toBeDefined();
    expect(elementOf(resolved, 'vis:alert:resolve')).toBeUndefined();
    // The assignee's copy follows.
    const dmAfter = await h.slack.waitFor(
      () =>
        messageText(h.slack.messages(`D${MAYA.slice(1)}`)[0]!).includes('Resolved by') &&
        h.slack.messages(`D${MAYA.slice(1)}`)[0],
      5000,
    );
    expect(elementOf(dmAfter, 'vis:alert:reopen')).toBeDefined();
    const resolveNote = await h.slack.waitFor(
      () => h.notes(ch).find((n) => messageText(n).includes('resolved')),
      5000,
    );
    expect(messageText(resolveNote)).toContain(`<@${USER}> resolved`);
    const state = await h.deps.store.alertStates.findByMessage(ch, alert.ts);
    expect(state).toMatchObject({ assigneeId: MAYA, resolvedBy: USER, resolveNote: hostileNote });
    expect((await h.deps.auditLog.recent(5)).map((e) => e.action)).toEqual(
      expect.arrayContaining(['alert.assign', 'alert.resolve']),
    );
  });

  it('a replayed or forged click changes nothing', async () => {
    h.slack.addUser({ id: MAYA, name: 'maya' });
    h.slack.addUser({ id: 'U0SAM', name: 'sam' });
    const ch = 'COWNED2';
    const { alert } = await postAlert(ch);
    await assign(ch, alert.ts, MAYA);
    const clicked = h.slack.lastRequest()!;
    await h.slack.waitFor(() => stateBlock(current(ch, alert.ts)), 5000);
    await assign(ch, alert.ts, 'U0SAM');
    await h.slack.waitFor(() => messageText(current(ch, alert.ts)!).includes('<@U0SAM>'), 5000);
    await h.slack.waitFor(() => h.notes(ch).find((n) => messageText(n).includes('to <@U0SAM>')), 5000);
    const notes = h.notes(ch).length;

    // The first click again, freshly signed (an attacker who saw it): Sam stays the owner.
    const replay = await h.slack.postSigned(h.appUrl, clicked.body);
    expect(replay.status).toBe(200);
    // Forged: signed with another secret: refused before anything runs.
    const now = Math.floor(h.botClock.now() / 1000);
    const forged = signSlackRequest('not-the-signing-secret', clicked.body, now);
    const refused = await fetch(h.appUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-signature': forged.signature,
        'x-slack-request-timestamp': forged.timestamp,
      },
      body: clicked.body,
    });
    expect(refused.status).toBe(401);
    // The replay's answer is on its response_url: that click was already handled.
    const clickPayload = JSON.parse(new URLSearchParams(clicked.body).get('payload')!) as {
      response_url: string;
    };
    const replayUrl = clickPayload.response_url.split('/').at(-1);
    const told = await h.slack.waitFor(
      () =>
        h.slack
          .responsesFor(replayUrl!)
          .map((r) => (r.body as { text?: string }).text ?? '')
          .find((t) => t.includes('already handled')),
      5000,
    );
    expect(told).toContain('nothing changed');
    expect((await h.deps.store.alertStates.findByMessage(ch, alert.ts))?.assigneeId).toBe('U0SAM');
    expect(h.notes(ch)).toHaveLength(notes);

    // A click naming another alert (its id in the action_id) on this message: refused.
    const other = await postAlert('COWNED3');
    const otherState = await h.deps.store.alertStates.findByMessage('COWNED3', other.alert.ts);
    const body = new URLSearchParams(clicked.body);
    const payload = JSON.parse(body.get('payload')!) as Json;
    (payload['actions'] as Json[])[0]!['action_id'] = `vis:alert:assign:${otherState!.id}`;
    (payload as { trigger_id: string })['trigger_id'] = 'T0FORGEDTRIGGER';
    body.set('payload', JSON.stringify(payload));
    await h.slack.postSigned(h.appUrl, body.toString());
    await h.slack.waitFor(
      () =>
        h.slack
          .responsesFor(replayUrl!)
          .map((r) => (r.body as { text?: string }).text ?? '')
          .find((t) => t.includes('does not belong to an alert')),
      5000,
    );
    expect((await h.deps.store.alertStates.get(otherState!.id))?.assigneeId).toBeNull();
  });

  it('the same page lost again links to its earlier occurrence and goes back to its owner', async () => {
    h.slack.addUser({ id: MAYA, name: 'maya' });
    const ch = 'COWNED4';
    const { alert, url } = await postAlert(ch);
    await assign(ch, alert.ts, MAYA);
    await h.slack.waitFor(() => stateBlock(current(ch, alert.ts)), 5000);
    await resolveWithNote(ch, alert.ts, 'Restored');
    await h.slack.waitFor(() => messageText(current(ch, alert.ts)!).includes('Resolved by'), 5000);
    const dmBefore = h.slack.messages(`D${MAYA.slice(1)}`).length;

    // Cited again, then lost again.
    h.advanceSnapshot({ add: [url] });
    await h.runJobs('citations');
    h.advanceSnapshot({ lose: [url] });
    await h.runJobs('citations');
    const again = await h.slack.waitFor(() => h.posts(ch)[1], 5000);
    const redrawn = await h.slack.waitFor(
      () => messageText(current(ch, again.ts)!).includes('This happened before') && current(ch, again.ts),
      5000,
    );
    const earlier = await h.deps.store.alertStates.findByMessage(ch, alert.ts);
    expect(messageText(redrawn)).toContain(earlier!.permalink!);
    expect(messageText(redrawn)).toContain(`resolved by <@${USER}>`);
    expect(messageText(redrawn)).toContain('“Restored”');
    expect(messageText(redrawn)).toContain(`Assigned to <@${MAYA}>, who owned it the last time it happened`);
    expect(elementOf(redrawn, 'vis:alert:resolve')).toBeDefined();
    const dm = await h.slack.waitFor(
      () =>
        h.slack.messages(`D${MAYA.slice(1)}`).length > dmBefore &&
        h.slack.messages(`D${MAYA.slice(1)}`).at(-1),
      5000,
    );
    expect(messageText(dm)).toContain('This alert happened again');
    const state = await h.deps.store.alertStates.findByMessage(ch, again.ts);
    expect(state).toMatchObject({ previousId: earlier!.id, assigneeId: MAYA, resolvedAtMs: null });
  });
});
