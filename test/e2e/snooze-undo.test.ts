/**
 * Snoozing from an alert can be undone (issue 11): the snooze's channel note and the
 * clicker's confirmation each say how, with an Undo snooze button; a click lifts the snooze,
 * tells the channel who did, and the alerts the snooze was holding are released (this harness
 * runs no relay loop, so the next run delivers them; held-release.test.ts shows the
 * running relay posting them at once). The real citations job, the service, the simulator and the local Slack.
 */
import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '../../src/dev/local-slack/index.js';
import { acme, messageText, useAlertsHarness } from './alerts-harness.js';

type Json = Record<string, unknown>;
const h = useAlertsHarness();
const USER = 'U0LOCALUSR';

const rowsOf = (m: StoredMessage) =>
  ((m.blocks ?? []) as Json[]).filter((b) => String(b['block_id'] ?? '').startsWith('vis:alert:row:'));

const undoButtonOf = (blocks: unknown[] | undefined) =>
  ((blocks ?? []) as Json[])
    .flatMap((b) => (b['elements'] as Json[] | undefined) ?? [])
    .find((e) => e['action_id'] === 'vis:alert:unsnooze');

describe('undoing a snooze', () => {
  it('the note and the confirmation offer Undo; a click lifts it, tells the channel, and releases what it held', async () => {
    const ch = h.channel('CUNSNOOZE');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    const [first, second] = h.sim.control.citationUrls(acme.id);
    h.advanceSnapshot({ lose: [first!] });
    await h.runJobs('citations');
    const [alert] = h.posts(ch);
    const menu = rowsOf(alert!)[0]?.['accessory'] as Json | undefined;
    const snooze = menu ? ((menu['options'] as Json[])[1] as Json) : undefined;
    // A single alert carries the Snooze button; a grouped one, each row's menu.
    const res = menu
      ? await h.slack.blockAction(h.appUrl, {
          actionId: String(menu['action_id']),
          selectedOption: String(snooze!['value']),
          channelId: ch,
          messageTs: alert!.ts,
        })
      : await h.slack.blockAction(h.appUrl, {
          actionId: 'vis:alert:snooze',
          channelId: ch,
          messageTs: alert!.ts,
        });
    const confirmation = (await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000))
      .body as {
      text: string;
      blocks: unknown[];
    };
    expect(confirmation.text).toContain('Lost-page alerts for *Acme Analytics* are snoozed');
    expect(confirmation.text).toContain('*Undo snooze* lifts it now');
    expect(undoButtonOf(confirmation.blocks)).toBeDefined();
    const snoozeNote = await h.slack.waitFor(() => h.notes(ch)[1], 5000);
    expect(messageText(snoozeNote)).toContain(`<@${USER}> snoozed lost-page alerts for *Acme Analytics*`);
    expect(messageText(snoozeNote)).toContain('or at once with *Undo snooze*');
    expect(undoButtonOf(snoozeNote.blocks)).toBeDefined();

    // Snoozed: the next loss is held, not posted.
    h.advanceSnapshot({ lose: [second!] });
    await h.runJobs('citations');
    expect(h.posts(ch)).toHaveLength(1);

    // Undone from the note in the channel.
    const undo = await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:alert:unsnooze',
      channelId: ch,
      messageTs: snoozeNote.ts,
    });
    const lifted = (await h.slack.waitFor(() => h.slack.responsesFor(undo.responseUrlId)[0], 5000)).body as {
      text: string;
    };
    expect(lifted.text).toContain(':bell: Lost-page alerts for *Acme Analytics* are back on');
    expect(lifted.text).toContain('The held alert message is being posted now.');
    expect((await h.deps.store.snoozes.active(ch, acme.id, h.deps.clock.now())).size).toBe(0);
    const liftNote = await h.slack.waitFor(() => h.notes(ch)[2], 5000);
    expect(messageText(liftNote)).toContain(
      `<@${USER}> lifted the snooze: lost-page alerts for *Acme Analytics* are back on`,
    );
    expect((await h.deps.auditLog.recent(1))[0]).toMatchObject({
      action: 'alert.unsnooze',
      brandId: acme.id,
      result: 'ok',
    });

    // What the snooze held is delivered at the next run.
    await h.runJobs('citations');
    const posts = await h.slack.waitFor(() => h.posts(ch).length === 2 && h.posts(ch), 5000);
    expect(messageText(posts[1]!)).toContain(second!);

    // A second click on a stale Undo changes nothing and tells the clicker so.
    const again = await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:alert:unsnooze',
      channelId: ch,
      messageTs: snoozeNote.ts,
    });
    const nothing = (await h.slack.waitFor(() => h.slack.responsesFor(again.responseUrlId)[0], 5000))
      .body as {
      text: string;
    };
    expect(nothing.text).toContain('are not snoozed in this channel (any more); nothing changed');
    expect(h.notes(ch)).toHaveLength(3);
  });
});
