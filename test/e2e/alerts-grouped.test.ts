/**
 * A grouped alert as a channel sees it: the real citations job posts one message for two
 * lost citations (simulator → job → outbox → local Slack), and a colleague reads each change
 * in one line, the reason once, and acts on each alert from its own menu through the real
 * service (signed block_actions, Bolt, the action router).
 */
import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '../../src/dev/local-slack/index.js';
import { acme, northwind, useAlertsHarness } from './alerts-harness.js';

type Json = Record<string, unknown>;
const h = useAlertsHarness();
/** The local Slack's own user: a user it does not know is refused before any handler runs. */
const USER = 'U0LOCALUSR';

const blockText = (b: Json) => String((b['text'] as Json | undefined)?.['text'] ?? '');
const rowsOf = (m: StoredMessage) =>
  ((m.blocks ?? []) as Json[]).filter((b) => String(b['block_id'] ?? '').startsWith('vis:alert:row:'));

describe('a grouped alert', () => {
  it('states each change in one line, explains the kind once, and gives every alert its own Acknowledge and Snooze', async () => {
    const ch = h.channel('CGROUPED');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    const [first, second] = h.sim.control.citationUrls(acme.id);
    h.advanceSnapshot({ lose: [first!, second!] });
    await h.runJobs('citations');
    const [message] = h.posts(ch);
    expect(message).toBeDefined();
    const blocks = message!.blocks as Json[];

    expect(blockText(blocks[0]!)).toBe('Acme Analytics: 2 alerts');
    const rows = rowsOf(message!);
    expect(rows).toHaveLength(2);
    for (const [i, url] of [first!, second!].entries()) {
      const text = blockText(rows[i]!);
      expect(text.split('\n')[0]).toMatch(/^\*Cited page lost: .+\* — cited → not cited$/);
      expect(text).toContain(url);
    }
    const all = JSON.stringify(blocks);
    // The reason and the advice once for both, not once per alert.
    expect(all.match(/Why they matter/g)).toHaveLength(1);
    expect(all.match(/What to do/g)).toHaveLength(1);
    expect(all).not.toContain('Why it matters');

    const menus = rows.map((r) => r['accessory'] as Json);
    for (const menu of menus) {
      expect(menu['type']).toBe('overflow');
      expect((menu['options'] as Json[]).map((o) => (o['text'] as Json)['text'])).toEqual([
        'Acknowledge',
        'Snooze lost-page alerts 24 h',
      ]);
    }

    // Acknowledge the second alert from its own menu: only its row changes.
    const ackOption = (menus[1]!['options'] as Json[])[0]!;
    await h.slack.blockAction(h.appUrl, {
      actionId: String(menus[1]!['action_id']),
      selectedOption: String(ackOption['value']),
      channelId: ch,
      messageTs: message!.ts,
      userId: USER,
    });
    const edited = await h.slack.waitFor(() => {
      const m = h.slack.messages(ch).find((x) => x.ts === message!.ts);
      return m?.edited ? m : undefined;
    }, 5000);
    const [row1, row2] = rowsOf(edited);
    expect(blockText(row1!)).not.toContain('Acknowledged');
    expect(blockText(row2!)).toContain(`Acknowledged by <@${USER}>`);

    // Snooze from the first alert's menu, which is still there.
    const snoozeOption = (((row1!['accessory'] as Json)['options'] as Json[]) ?? [])[1]!;
    const res = await h.slack.blockAction(h.appUrl, {
      actionId: String((row1!['accessory'] as Json)['action_id']),
      selectedOption: String(snoozeOption['value']),
      channelId: ch,
      messageTs: message!.ts,
      userId: USER,
    });
    const reply = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000);
    expect((reply.body as { text: string }).text).toContain(
      'Lost-page alerts for *Acme Analytics* are snoozed',
    );
  });

  it('a single alert is named once, in the header, and a brand ending in s takes a bare apostrophe', async () => {
    const ch = h.channel('CSINGLE');
    await h.command('subscribe "Northwind Outfitters" alerts', ch);
    await h.runJobs('crawler');
    h.sim.control.setCrawlerTraffic(northwind.id, { factor: 0.3, days: 8 });
    await h.runJobs('crawler');
    const [message] = h.posts(ch);
    expect(message).toBeDefined();
    const blocks = message!.blocks as Json[];
    const header = blockText(blocks[0]!);
    expect(header).toMatch(/^Northwind Outfitters: AI crawler visits down \d+ %$/);
    const title = header.slice('Northwind Outfitters: '.length);
    // The title is not repeated as a heading under the header.
    expect(JSON.stringify(blocks.slice(1))).not.toContain(title);
    const body = blockText(blocks[1]!);
    expect(body).toContain("AI crawlers visited Northwind Outfitters' site");
    expect(body).not.toContain("Outfitters's");
    expect(body).toMatch(/\*Before → after:\* [\d,]+ visits → [\d,]+ visits/);
  });
});
