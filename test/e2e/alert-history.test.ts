/**
 * `/visibility alerts`: a brand's alerts with their state, owner, time to acknowledge and
 * to resolve, each linked to its message; filtered by state and by age, paged with
 * Previous/Next. The real service, the local Slack and the store.
 */
import { describe, expect, it } from 'vitest';
import { acme, DAY_MS, HOUR_MS, type ReplyBody, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();
const text = (r: ReplyBody) => `${r.text}\n${JSON.stringify(r.blocks)}`;

describe('the alert history', () => {
  it('lists, filters and pages a brand’s alerts', async () => {
    const ch = h.channel('CHISTORY');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    const [url] = h.sim.control.citationUrls(acme.id);
    h.advanceSnapshot({ lose: [url!] });
    await h.runJobs('citations');
    const alert = await h.slack.waitFor(() => h.posts(ch)[0], 5000);
    const store = h.deps.store.alertStates;
    const real = await h.slack.waitFor(() => store.findByMessage(ch, alert.ts), 5000);
    const now = h.botClock.now();
    await store.assign(real!.id, {
      assigneeId: 'U0MAYA',
      byUserId: 'U0LOCALUSR',
      atMs: real!.postedAtMs + 12 * 60_000,
    });
    await store.resolve(real!.id, {
      byUserId: 'U0MAYA',
      note: 'Restored <the> page',
      atMs: real!.postedAtMs + 3 * HOUR_MS,
    });
    // Eleven older alerts this month, and one from two months ago.
    for (let i = 1; i <= 12; i += 1)
      await store.recordPosted({
        outboxId: 100_000 + i,
        channelId: ch,
        messageTs: `1700000000.0000${10 + i}`,
        brandId: acme.id,
        headline: `Acme Analytics: Cited page lost: https://old.example/${i}`,
        kinds: ['citation_lost'],
        alertCount: 1,
        postedAtMs: i === 12 ? now - 60 * DAY_MS : now - i * DAY_MS,
        subjects: [],
      });

    const first = await h.command('alerts "Acme Analytics"', ch);
    const shown = text(first);
    expect(first.text).toContain('Alerts for Acme Analytics, last 30 days');
    expect(first.text).toContain('1–10 of 12 alerts, newest first');
    // The newest: linked to its message, resolved with the note as text, owner and times.
    expect(shown).toContain(`${real!.permalink ?? 'no permalink'}|Acme Analytics: Cited page lost`);
    expect(shown).toContain('Resolved by <@U0MAYA>');
    expect(shown).toContain('owner <@U0MAYA>');
    expect(shown).toContain('acknowledged after 12 minutes');
    expect(shown).toContain('resolved after 3 hours');
    expect(shown).toContain('“Restored &lt;the&gt; page”');
    expect(shown).toContain(':red_circle: Open · no owner');
    expect(shown).toContain('not acknowledged yet');
    expect(shown).not.toContain('old.example/11');

    const res = await h.slack.slashCommand(h.appUrl, { text: 'alerts "Acme Analytics"', channelId: ch });
    await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000);
    await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:alerts:page:next',
      responseUrlId: res.responseUrlId,
    });
    const next = (await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[1], 5000))
      .body as ReplyBody;
    expect(next.text).toContain('11–12 of 12 alerts');
    expect(text(next)).toContain('old.example/10');
    expect(text(next)).toContain('old.example/11');
    expect(text(next)).toContain('vis:alerts:page:prev');
    expect(text(next)).not.toContain('vis:alerts:page:next');

    const resolved = await h.command('alerts "Acme Analytics" resolved', ch);
    expect(resolved.text).toContain('Resolved alerts for Acme Analytics');
    expect(resolved.text).toContain('1–1 of 1 alert,');
    const open = await h.command('alerts "Acme Analytics" open --days 90', ch);
    expect(open.text).toContain('Open alerts for Acme Analytics, last 90 days');
    expect(open.text).toContain('of 12 alerts');
    expect(text(open)).not.toContain('Restored');

    const bad = await h.command('alerts "Acme Analytics" --days 400', ch);
    expect(bad.text).toContain('--days');
    expect(bad.text).toContain('365');
    const none = await h.command('alerts "Globex Corporation"', ch);
    expect(none.text).toContain('No alerts for *Globex Corporation* in the last 30 days');
  });
});
