/**
 * The subscription commands end to end: help documents them (settings syntax, duration
 * format), settings are shown, changed and explained when wrong, changes are limited to
 * SLACK_ADMIN_USERS and audited, unsubscribe takes one kind or both, and `status` shows the
 * polling plan, stretched and with its warning when the subscriptions outgrow the plan.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyAfterRefusedTable } from '../helpers/refused-table.js';
import { acme, globex, useAlertsHarness } from './alerts-harness.js';
import { cellShown, dataTables, type ReplyBody, tableRow } from './read-commands-harness.js';

const ADMIN = 'U0LOCALUSR';
const OUTSIDER = 'U0OUTSIDER';
// The test plan: 1,000 calls a day, of which the scheduler allows itself 800.
const h = useAlertsHarness({ env: { SLACK_ADMIN_USERS: ADMIN, VISIBILITY_API_PLAN: 'test' } });
const blocks = (r: { blocks: unknown[] }) => JSON.stringify(r.blocks);

beforeAll(async () => {
  h.channel('CCMD');
  h.slack.addUser({ id: OUTSIDER, name: 'outsider' });
});

describe('help', () => {
  it('lists the alert commands and documents settings and durations', async () => {
    const all = await h.command('help', 'CCMD');
    for (const name of ['subscribe', 'unsubscribe', 'subscriptions', 'settings', 'mute', 'unmute']) {
      expect(blocks(all)).toContain(`/visibility ${name}`);
    }
    const settings = await h.command('help settings', 'CCMD');
    for (const s of [
      'crawler-drop=40',
      'ai-pages=80,90,100',
      'quiet=22:00-07:00',
      'tz=Berlin',
      'digest=09:00',
      'weekly=on',
      'weekly-day=monday',
      'weekly-time=09:00',
    ]) {
      expect(blocks(settings)).toContain(s);
    }
    const mute = await h.command('help mute', 'CCMD');
    expect(blocks(mute)).toContain('1h30m');
    expect(blocks(mute)).toContain('30 days');
  });
});

describe('settings', () => {
  it('shows, changes (audited) and explains every mistake at once', async () => {
    await h.command('subscribe "Acme Analytics"', 'CCMD');
    const shown = await h.command('settings acme', 'CCMD');
    // Settings in words; the key=value syntax is in help only.
    expect(blocks(shown)).toContain('*Crawler drop*: alert when AI crawler visits fall 40 % or more');
    expect(blocks(shown)).not.toContain('crawler-drop=');
    expect(blocks(shown)).toContain("UTC (the bot's default)");

    const wrong = await h.command('settings acme crawler-drop=abc quiet=25:00-07:00 colour=red', 'CCMD');
    expect(wrong.text).toContain('Nothing changed');
    expect(wrong.text).toContain('crawler-drop');
    expect(wrong.text).toContain('quiet');
    expect(wrong.text).toContain('"colour" is not a setting');
    expect((await h.deps.store.subscriptions.get('CCMD', acme.id))!.settings.crawlerDropPct).toBe(40);

    const changed = await h.command('settings "Acme Analytics" crawler-drop=30 tz=Europe/Berlin', 'CCMD');
    expect(changed.text).toContain('Updated');
    expect(changed.text).toContain('AI crawler visits falling 30 % or more');
    expect(changed.text).toContain('digest at 09:00 Europe/Berlin');
    const audit = (await h.deps.auditLog.recent(1))[0]!;
    expect(audit).toMatchObject({
      userId: ADMIN,
      channelId: 'CCMD',
      action: 'change alert settings',
      result: 'ok',
    });
    expect(audit.detail?.['changed']).toEqual(['crawlerDropPct', 'timezone']);
  });

  it('takes a time zone as a city, in settings and in subscribe, with a suggestion for a near miss', async () => {
    // CCMD is subscribed to Acme already (above): subscribe again with settings changes them.
    const before = (await h.deps.store.subscriptions.get('CCMD', acme.id))!.settings;
    const missed = await h.command('subscribe "Acme Analytics" tz=Berlim', 'CCMD');
    expect(missed.text).toContain('Nothing changed');
    expect(missed.text).toContain('Did you mean Berlin (Europe/Berlin)');
    expect((await h.deps.store.subscriptions.get('CCMD', acme.id))!.settings).toEqual(before);

    const subscribed = await h.command('subscribe "Acme Analytics" tz=Berlin digest=08:30', 'CCMD');
    expect(subscribed.text).toContain('08:30 Europe/Berlin');
    expect((await h.deps.store.subscriptions.get('CCMD', acme.id))!.settings).toMatchObject({
      timezone: 'Europe/Berlin',
      digestTime: '08:30',
    });

    // A city of two words needs no quotes.
    const moved = await h.command('settings acme tz=new york digest=09:00', 'CCMD');
    expect(moved.text).toContain('America/New_York');
    expect((await h.deps.store.subscriptions.get('CCMD', acme.id))!.settings.timezone).toBe(
      'America/New_York',
    );
  });

  it('explains a bad mute duration', async () => {
    // "10 minutes" is a duration now; a unit nobody uses still is not, and the refusal
    // lists the forms that work, in words.
    const reply = await h.command('mute acme 10 fortnights', 'CCMD');
    expect(reply.text).toContain('"fortnights" is not a unit');
    expect(reply.text).toContain('"2 hours"');
    expect(reply.text).toContain('"until tomorrow 9:00"');
  });
});

describe('permissions', () => {
  it('refuses changes from users outside SLACK_ADMIN_USERS and records the refusal', async () => {
    const notesBefore = h.notes('CCMD').length;
    for (const text of [
      'subscribe "Globex Corporation"',
      'mute acme 1h',
      'settings acme crawler-drop=20',
      'unsubscribe acme',
    ]) {
      const reply = await h.command(text, 'CCMD', OUTSIDER);
      expect(reply.text).toContain("Only the bot's admins can");
      expect((await h.deps.auditLog.recent(1))[0]).toMatchObject({
        userId: OUTSIDER,
        result: 'refused: not an admin',
      });
    }
    // Nothing changed, so the channel is told nothing.
    expect(h.notes('CCMD')).toHaveLength(notesBefore);
    // Reading is for everyone.
    const list = await h.command('subscriptions', 'CCMD', OUTSIDER);
    expect(list.text).toContain('Acme Analytics: alerts and the daily digest');
  });
});

describe('the subscriptions list', () => {
  const ch = 'CTABLE';
  const controls = (reply: ReplyBody, brandId: string) => {
    const block = reply.blocks.find((b) => b['block_id'] === `vis:subs:${brandId}`);
    const els = (block?.['elements'] ?? []) as Array<Record<string, { text: string } | string>>;
    return els.map((e) => ((e['text'] ?? e['placeholder']) as { text: string }).text);
  };

  beforeAll(async () => {
    h.channel(ch);
    await h.command('subscribe "Acme Analytics"', ch);
    await h.command(`subscribe "${globex.name}" alerts`, ch);
    await h.command('mute "Acme Analytics" 2h', ch);
  });
  // The quota planner below counts every subscription.
  afterAll(async () => {
    await h.command('unsubscribe "Acme Analytics"', ch);
    await h.command(`unsubscribe "${globex.name}"`, ch);
  });

  it('is a table Slack accepts, a row per brand, counts and days sortable, each brand’s controls under it', async () => {
    // h.command fails the test when the local Slack (which validates data_table) refuses it.
    const list = await h.command('subscriptions', ch);
    const [table, ...others] = dataTables(list);
    expect(others).toEqual([]);
    expect(table!.caption).toBe('Subscriptions (2)');
    expect(table!.page_size).toBe(10);
    expect(table!.rows[0]!.map(cellShown)).toEqual([
      'Brand',
      'Alerts',
      'Daily digest',
      'Quiet hours',
      'Status',
      'Alerts held',
      'Subscribed',
    ]);
    const rowOf = (name: string) =>
      tableRow(
        list,
        table!.rows.findIndex((r) => r[0]!.text === name),
      );
    expect(rowOf('Acme Analytics')).toMatchObject({
      Alerts: 'On',
      'Daily digest': '09:00 UTC',
      'Quiet hours': 'None',
      'Alerts held': '0',
    });
    expect(rowOf('Acme Analytics')['Status']).toMatch(/^Muted until [A-Z][a-z]{2} \d{1,2}, \d{4} at /);
    expect(rowOf(globex.name)).toMatchObject({ Alerts: 'On', 'Daily digest': 'Off', Status: 'Active' });
    // Counts and days are numbers Slack sorts by.
    const acmeRow = table!.rows.find((r) => r[0]!.text === 'Acme Analytics')!;
    const sub = (await h.deps.store.subscriptions.get(ch, acme.id))!;
    expect(acmeRow[5]).toMatchObject({ type: 'raw_number', value: 0, text: '0' });
    expect(acmeRow[6]).toMatchObject({ type: 'raw_number', value: sub.createdAtMs });
    for (const row of table!.rows.slice(1))
      expect([row[5]!.type, row[6]!.type]).toEqual(['raw_number', 'raw_number']);
    // What holds Acme back, and what to do about it, under the table.
    expect(JSON.stringify(list.blocks)).toContain(':no_bell: *Muted* until');
    expect(JSON.stringify(list.blocks)).toContain('`/visibility unmute \\"Acme Analytics\\"` ends it now');
    // Each brand's controls name it.
    expect(controls(list, acme.id)).toEqual([
      'Edit settings: Acme Analytics',
      'Mute Acme Analytics…',
      'Unsubscribe: Acme Analytics',
    ]);
    expect(controls(list, globex.id)).toEqual([
      `Edit settings: ${globex.name}`,
      `Mute ${globex.name}…`,
      `Unsubscribe: ${globex.name}`,
    ]);
    // The text names the rows too (notifications, clients without the table).
    expect(list.text).toContain(`${globex.name} — Alerts: On · Daily digest: Off`);
  });

  it('goes out once more with the rows as lines when the workspace refuses the table, controls kept', async () => {
    const { refused, resent } = await replyAfterRefusedTable(h.slack, h.appUrl, {
      text: 'subscriptions',
      channelId: ch,
    });
    const reply = resent as ReplyBody;
    expect(dataTables(reply)).toEqual([]);
    expect(blocks(reply)).toContain('*Subscriptions (2)*');
    expect(blocks(reply)).toContain(
      `• ${globex.name} — Alerts: On · Daily digest: Off · Quiet hours: None · Status: Active · Alerts held: 0`,
    );
    expect(blocks(reply)).toContain('• Acme Analytics — Alerts: On · Daily digest: 09:00 UTC');
    expect(controls(reply, acme.id)).toHaveLength(3);
    expect(controls(reply, globex.id)).toHaveLength(3);
    expect(reply.text).toBe((refused as ReplyBody).text);
  });
});

describe('unsubscribe', () => {
  it('stops one kind, then both', async () => {
    const digestOff = await h.command('unsubscribe acme digest', 'CCMD');
    expect(digestOff.text).toContain('no longer gets the daily digest (alerts continue)');
    expect((await h.deps.store.subscriptions.listByChannel('CCMD'))[0]).toMatchObject({
      alerts: true,
      digest: false,
    });
    const gone = await h.command('unsubscribe acme', 'CCMD');
    expect(gone.text).toContain('no longer gets alerts or digests');
    const list = await h.command('subscriptions', 'CCMD');
    expect(list.text).toContain('This channel has no subscriptions');
  });
});

describe('status and the quota planner', () => {
  const addBrands = async (n: number) => {
    const subs = h.deps.store.subscriptions;
    for (let i = 0; i < n; i++) {
      await subs.upsert({
        channelId: 'CPLAN',
        brandId: `plan-brand-${i}`,
        brandName: `Brand ${i}`,
        createdBy: ADMIN,
        createdAtMs: Date.now(),
      });
    }
  };

  it('shows the plan, calls per brand and brands per key, and a warning when even the longest intervals do not fit', async () => {
    // 80 % of 1,000 a day: 70 brands fit at the defaults (about 5.2 calls each), 250 do not.
    await addBrands(70);
    const fits = blocks(await h.command('status', 'CCMD'));
    expect(fits).toContain('70 subscribed brands');
    expect(fits).toContain('of the 800 the bot allows itself (80 % of 1,000 a day)');
    expect(fits).toContain(
      'About 5.2 calls per brand per day: this key can watch about 150 brands at these settings',
    );
    expect(fits).not.toContain('brands need');

    await addBrands(250);
    const over = blocks(await h.command('status', 'CCMD'));
    expect(over).toContain('250 brands need');
    expect(over).toContain('unsubscribe some brands or move to a plan with a higher daily limit');
    // Scheduled jobs, health and subscriptions are listed too.
    expect(over).toContain('`citations` every 24 h');
    expect(over).toContain('no problems reported');
    expect(over).toContain('250 in 1 channel');
  });
});
