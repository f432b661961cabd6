/**
 * show-alert-state.ts against the real local Slack and a real SQLite store: an alert
 * changed by another replica while this one draws it ends up drawn as stored, on the
 * channel message and on the assignee's copy.
 */
import type { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type LocalSlack, type StoredMessage, startLocalSlack } from '../../src/dev/local-slack/index.js';
import { type Mrkdwn, mrkdwn } from '../../src/messages/mrkdwn.js';
import { announceAlertChange } from '../../src/slack/features/subscriptions/alert-owner.js';
import { CHANNEL_NOTE_EVENT } from '../../src/slack/features/subscriptions/post-channel-note.js';
import type { SlackDeps } from '../../src/slack/kit/slack-deps.js';
import type { AlertState } from '../../src/store/alert-states-repo.js';
import type { SqliteStore } from '../../src/store/create-sqlite-store.js';
import { showAlertState } from '../../src/use-cases/show-alert-state.js';
import { quietLogger } from '../dev/local-slack/local-slack-fixture.js';
import { relayWebClient } from '../jobs/relay-fixture.js';
import { type TempDb, tempDb } from '../store/temp-db.js';

const CH = 'C0ALERTS1';
const MAYA = 'U0MAYA';
const LEE = 'U0LEE';

let slack: LocalSlack;
let t: TempDb;
beforeEach(async () => {
  slack = await startLocalSlack();
  slack.addChannel({ id: CH, name: 'alerts', isMember: true });
  slack.addUser({ id: MAYA, name: 'maya' });
  slack.addUser({ id: LEE, name: 'lee' });
  t = tempDb();
});
afterEach(async () => {
  t.close();
  await slack.close();
});

const textOf = (m: StoredMessage | undefined) => JSON.stringify(m?.blocks ?? []);

/** An alert message posted to the channel and recorded, as the relay leaves it. */
async function postedAlert(store: SqliteStore, web: WebClient): Promise<AlertState> {
  const text = 'Acme Analytics: a cited page was lost';
  const res = await web.chat.postMessage({
    channel: CH,
    text,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
  });
  const outboxId = (
    await store
      .outbox()
      .enqueue({ dedupeKey: 'k1', channelId: CH, kind: 'alert', payload: { text }, nowMs: 1 })
  ).id;
  const { state } = await store.alertStates.recordPosted({
    outboxId,
    channelId: CH,
    messageTs: String(res.ts),
    brandId: 'b1',
    headline: text,
    kinds: ['citation_lost'],
    alertCount: 1,
    postedAtMs: 1,
    subjects: ['citation_lost:https://a.example/one'],
  });
  return state;
}

/** An alert assigned to Maya, and how another replica resolves it and draws what it knows. */
async function assignedAlert(web: WebClient) {
  const store = t.store;
  const alert = await postedAlert(store, web);
  const assigned = await store.alertStates.assign(alert.id, { assigneeId: MAYA, byUserId: LEE, atMs: 2 });
  const other = relayWebClient(slack);
  const resolveElsewhere = async () => {
    const resolved = await store.alertStates.resolve(alert.id, { byUserId: LEE, note: 'fixed', atMs: 3 });
    await showAlertState({ store, web: other, logger: quietLogger }, resolved!);
  };
  return { alert, assigned: assigned!, resolveElsewhere };
}

it('a Resolve made on another replica while the assignee’s copy is sent shows on the message and the copy', async () => {
  const store = t.store;
  const web = relayWebClient(slack);
  const { alert, assigned, resolveElsewhere } = await assignedAlert(web);
  // The other replica resolves once Slack has taken Maya's copy, before this one records it,
  // and draws what it knows: the channel message, no copy yet.
  const post = web.chat.postMessage.bind(web.chat);
  web.chat.postMessage = (async (args: Parameters<typeof post>[0]) => {
    const res = await post(args);
    if (args.channel === MAYA) await resolveElsewhere();
    return res;
  }) as typeof web.chat.postMessage;

  await showAlertState({ store, web, logger: quietLogger }, assigned, { newAssignee: true });

  const stored = await store.alertStates.get(alert.id);
  expect(stored?.resolvedBy).toBe(LEE);
  const channel = slack.messages(CH).find((m) => m.ts === alert.messageTs);
  const copy = slack.messages(String(stored?.dmChannelId)).find((m) => m.ts === stored?.dmTs);
  expect(textOf(channel)).toContain(`Resolved by <@${LEE}>`);
  expect(textOf(copy)).toContain(`Resolved by <@${LEE}>`);
});

it('a draw that lands after another replica drew a newer change is drawn again with it', async () => {
  const web = relayWebClient(slack);
  const { alert, assigned, resolveElsewhere } = await assignedAlert(web);
  // The other replica resolves and draws while this one's first redraw is on its way.
  const update = web.chat.update.bind(web.chat);
  let first = true;
  web.chat.update = (async (args: Parameters<typeof update>[0]) => {
    if (first) {
      first = false;
      await resolveElsewhere();
    }
    return update(args);
  }) as typeof web.chat.update;

  await showAlertState({ store: t.store, web, logger: quietLogger }, assigned);

  const channel = slack.messages(CH).find((m) => m.ts === alert.messageTs);
  expect(textOf(channel)).toContain(`Resolved by <@${LEE}>`);
});

it('a click notes its change before it draws one another replica made meanwhile, so the notes keep the changes’ order', async () => {
  const store = t.store;
  const web = relayWebClient(slack);
  const alert = await postedAlert(store, web);
  const deps = { store, auditLog: store.auditLog, clock: { now: () => 2 }, logger: quietLogger };
  const announce = (client: WebClient, state: AlertState, did: Mrkdwn) =>
    announceAlertChange(
      { deps: deps as unknown as SlackDeps, client, userId: LEE },
      {
        action: 'alert.assign',
        state,
        newAssignee: true,
        did,
        undo: mrkdwn``,
        reply: mrkdwn``,
      },
    );
  const toMaya = await store.alertStates.assign(alert.id, { assigneeId: MAYA, byUserId: LEE, atMs: 2 });
  // Sam is assigned on another replica once Maya has her copy; that replica announces it
  // the moment this one reads the alert's message again (to draw the newer change).
  const other = relayWebClient(slack);
  let toSam: AlertState | null = null;
  const post = web.chat.postMessage.bind(web.chat);
  web.chat.postMessage = (async (args: Parameters<typeof post>[0]) => {
    const res = await post(args);
    if (args.channel === MAYA && !toSam)
      toSam = await store.alertStates.assign(alert.id, { assigneeId: 'U0SAM', byUserId: LEE, atMs: 3 });
    return res;
  }) as typeof web.chat.postMessage;
  const history = web.conversations.history.bind(web.conversations);
  let reads = 0;
  web.conversations.history = (async (args: Parameters<typeof history>[0]) => {
    reads += 1;
    if (reads === 2) await announce(other, toSam!, mrkdwn`assigned it to Sam.`);
    return history(args);
  }) as typeof web.conversations.history;

  await announce(web, toMaya!, mrkdwn`assigned it to Maya.`);

  const notes = slack.messages(CH).filter((m) => m.metadata?.event_type === CHANNEL_NOTE_EVENT);
  expect(notes.map((m) => (m.text?.includes('Maya') ? 'Maya' : 'Sam'))).toEqual(['Maya', 'Sam']);
  expect(reads).toBeGreaterThanOrEqual(2);
  expect(textOf(slack.messages(CH).find((m) => m.ts === alert.messageTs))).toContain('<@U0SAM>');
});
