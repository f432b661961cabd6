/**
 * The App Home as a dashboard (issue 11, point 9), read the way a person sees it: the real
 * service, the real jobs and the local Slack. A brand subscribed in two channels (one
 * muted) gets an AI Pages usage alert: posted in one channel, acknowledged and snoozed
 * there, held in the muted one. Opening the Home shows the channels, each alert's state
 * and who did what, the AI Pages percent the `aipages` reply, the alert and the digest also
 * show, and the API quota `/visibility status` shows; a view button answers in the DM.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StoredView, validateBlocks } from '../../src/dev/local-slack/index.js';
import { HOME_MAX_DETAILED } from '../../src/slack/features/home/home-view.js';
import { acme, messageText, useAlertsHarness } from './alerts-harness.js';
import { type Harness, startHarness } from './service-harness.js';

type Json = Record<string, unknown>;
const h = useAlertsHarness();
/** The local Slack's own user: a user it does not know is refused before any handler runs. */
const USER = 'U0LOCALUSR';
const DM = 'D0LOCALUSR';

const blockText = (b: Json | undefined) => String((b?.['text'] as Json | undefined)?.['text'] ?? '');
/** `<!date^SECONDS^…>` tokens' seconds, in order. */
const dates = (s: string) => [...s.matchAll(/<!date\^(\d+)\^/g)].map((m) => Number(m[1]));

async function openHome(): Promise<StoredView> {
  const before = h.slack.callsTo('views.publish').length;
  await h.slack.event(h.appUrl, { type: 'app_home_opened', user: USER, tab: 'home', channel: DM });
  await h.slack.waitFor(() => h.slack.callsTo('views.publish').length > before, 8000);
  return h.slack.homeView(USER)!;
}

/** The blocks of one brand on the Home: from its summary section to its buttons. */
function brandSection(view: StoredView, brandId: string): { summary: string; activity: string } {
  const blocks = view.blocks as Json[];
  const actions = blocks.findIndex((b) => b['block_id'] === `vis:home:${brandId}`);
  expect(actions).toBeGreaterThan(1);
  return { summary: blockText(blocks[actions - 2]), activity: blockText(blocks[actions - 1]) };
}

describe('the App Home dashboard', () => {
  it('shows subscriptions, alert states with who, AI Pages usage as everywhere else, the quota, and opens views', async () => {
    const posted = h.channel('CHOMEPOST');
    const muted = h.channel('CHOMEMUTE');
    await h.command('subscribe "Acme Analytics"', posted, USER);
    await h.command('settings "Acme Analytics" digest=08:30 tz=Europe/Berlin', posted, USER);
    await h.command('subscribe "Acme Analytics" alerts', muted, USER);
    const muteReply = await h.command('mute "Acme Analytics" 2 hours', muted, USER);
    const [muteUntil] = dates(muteReply.text + JSON.stringify(muteReply.blocks));
    expect(muteUntil).toBeDefined();

    // 85.6 % is where a rounded percent (86) and the one rule, floored (85), part ways.
    h.sim.control.setAiPagesUsage(acme.id, {
      percentageUsed: 85.6,
      requestsThisMonth: 85_600,
      requestsLimit: 100_000,
      resetDate: '2031-01-01T00:00:00Z',
    });
    await h.runJobs('ai-pages');
    const [alert] = h.posts(posted);
    expect(alert).toBeDefined();
    expect(h.posts(muted)).toEqual([]);

    // Acknowledge the posted alert, then snooze its kind in that channel.
    await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:alert:ack',
      channelId: posted,
      messageTs: alert!.ts,
      userId: USER,
    });
    await h.slack.waitFor(() => h.slack.messages(posted).find((m) => m.ts === alert!.ts && m.edited), 5000);
    const snooze = await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:alert:snooze',
      channelId: posted,
      messageTs: alert!.ts,
      userId: USER,
    });
    const snoozed = await h.slack.waitFor(() => h.slack.responsesFor(snooze.responseUrlId)[0], 5000);
    const [snoozeUntil] = dates(JSON.stringify(snoozed.body));
    expect(snoozeUntil).toBeDefined();

    const view = await openHome();
    const { summary, activity } = brandSection(view, acme.id);
    // Channels, digest time in the channel's zone, the mute.
    expect(activity).toContain(`• <#${posted}>: alerts and digest at 08:30 Europe/Berlin`);
    expect(activity).toContain(
      `• <#${muted}>: alerts, no digest · :no_bell: muted until <!date^${muteUntil}^`,
    );
    // Each alert with its state and who acted on it.
    const lines = activity.split('\n');
    const postedLine = lines.find((l) => l.includes(`in <#${posted}>:`)) ?? '';
    const heldLine = lines.find((l) => l.includes(`in <#${muted}>:`)) ?? '';
    expect(postedLine).toMatch(/^• \*AI Pages usage passed 80 %\* in <#CHOMEPOST>: posted <!date\^\d+\^/);
    expect(postedLine).toContain(`:white_check_mark: acknowledged by <@${USER}>`);
    expect(postedLine).toContain(`:zzz: snoozed until <!date^${snoozeUntil}^`);
    expect(postedLine).toContain(`by <@${USER}>`);
    expect(heldLine).toMatch(
      /^• \*AI Pages usage passed 80 %\* in <#CHOMEMUTE>: :hourglass: held until <!date\^\d+\^/,
    );
    expect(heldLine).toContain(`held until <!date^${muteUntil}^`);
    expect(heldLine).toContain('(muted in that channel)');
    expect(heldLine).not.toContain('acknowledged');
    expect(heldLine).not.toContain('snoozed');

    // AI Pages: one percent on the Home, in the aipages reply, in the alert, in the digest.
    const onHome = /AI Pages usage: `[▰▱]+ (\d+) %` of the monthly limit/.exec(summary)?.[1];
    expect(onHome).toBe('85');
    const aipages = await h.command('aipages "Acme Analytics"', posted, USER);
    expect(/AI Pages usage\* {2}`[▰▱]+ (\d+) %`/.exec(JSON.stringify(aipages.blocks))?.[1]).toBe(onHome);
    expect(/AI Pages usage (\d+) % of the monthly limit/.exec(aipages.text)?.[1]).toBe(onHome);
    expect(messageText(alert!)).toContain(`AI Pages usage is ${onHome} % of the monthly limit`);
    expect(messageText(alert!)).not.toContain('86 %');
    await h.runJobs('digest');
    const digest = h.posts(posted).find((m) => m.ts !== alert!.ts);
    expect(digest).toBeDefined();
    expect(messageText(digest!)).toContain(`*AI Pages usage*: ${onHome} % of the monthly limit`);

    // The quota: the same figures as `/visibility status`, read right after the Home.
    // Cost: opening the Home again within the minute asks the API for nothing (the brand
    // list and AI Pages usage are remembered; everything else is the bot's own database).
    const requestsBefore = h.sim.requests.length;
    const home2 = await openHome();
    expect(h.sim.requests.slice(requestsBefore).map((r) => r.path)).toEqual([]);
    // The digest's chart cannot show on the Home: its 7 days are text bars there, the same
    // figures the line beside the digest's chart states (from the bot's own outbox, no API call).
    const digestBlocks = (digest!.blocks ?? []) as Json[];
    const chartAt = digestBlocks.findIndex((b) => b['type'] === 'data_visualization');
    expect(chartAt).toBeGreaterThan(0);
    const contextText = (b: Json | undefined) =>
      String(((b?.['elements'] as Json[] | undefined)?.[0] as Json | undefined)?.['text'] ?? '');
    const chartFile = { altText: contextText(digestBlocks[chartAt + 1]) };
    const trend = brandSection(home2, acme.id).summary;
    const bars =
      /Citations, 7 days to <!date\^\d+\^\{date_short\}\|(\w+ \d+), (\d{4})>: `[▁▂▃▄▅▆▇█·]{7}` latest ([\d,]+), peak ([\d,]+)/.exec(
        trend,
      );
    expect(bars, trend).not.toBeNull();
    const [, lastDay, year, lastValue, peak] = bars!;
    // One name and one period for the figure: the alt text says it as the Home does.
    expect(chartFile.altText).toContain(`Citations, 7 days to ${lastDay}, ${year}: `);
    expect(chartFile.altText).toContain(`to ${lastValue} on ${lastDay}`);
    expect(chartFile.altText).toMatch(new RegExp(`Citations, 7 days to [^:]+: [^.]*high ${peak}\\.`));
    expect(trend).toMatch(
      /AI crawler visits, 7 days to <!date\^\d+\^\{date_short\}\|\w+ \d+, \d{4}>: `[▁▂▃▄▅▆▇█·]{7}` latest [\d,]+, peak [\d,]+/,
    );
    const quota =
      (home2.blocks as Json[]).map(blockText).find((t) => t.startsWith('*API usage today:*')) ?? '';
    const status = await h.command('status', posted, USER);
    const used = /\*API usage today:\* ([\d,]+ of [\d,]+ requests {2}`[▰▱]+ \d+ %`)/.exec(
      JSON.stringify(status.blocks).replace(/\\"/g, '"'),
    )?.[1];
    expect(used).toBeDefined();
    expect(quota).toContain(`*API usage today:* ${used}`);

    // A view button on the Home answers in the app's DM (the Home has no channel to reply in).
    const dmBefore = h.slack.messages(DM).length;
    await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:open:aipages',
      container: 'view',
      viewId: home2.id,
      blockId: `vis:home:${acme.id}`,
      value: JSON.stringify({ brandId: acme.id }),
      userId: USER,
    });
    const dm = await h.slack.waitFor(() => h.slack.messages(DM)[dmBefore], 8000);
    expect(dm.text).toContain(`AI Pages usage ${onHome} % of the monthly limit`);
    expect(JSON.stringify(dm.blocks)).toContain('*AI Pages usage*');

    await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:open:citations',
      container: 'view',
      viewId: home2.id,
      blockId: `vis:home:${acme.id}`,
      value: JSON.stringify({ brandId: acme.id }),
      userId: USER,
    });
    const citations = await h.slack.waitFor(() => h.slack.messages(DM)[dmBefore + 1], 8000);
    expect(citations.text).toMatch(/^Cited pages for Acme Analytics, 1–\d+ of \d+: https:/);
  });
});

describe('the App Home with many brands', () => {
  const BRANDS = 60;
  let many: Harness;
  beforeAll(async () => {
    many = await startHarness({ simulator: { brands: BRANDS } });
  });
  afterAll(async () => {
    await many?.close();
  });

  it('shows the watched brand first, details what fits in 100 blocks, and points to /visibility brands for the rest', async () => {
    const brands = (await many.deps.brandCache.list({ lane: 'interactive' })).filter((b) => b.active);
    const watched = brands.at(-1)!;
    many.slack.addChannel({ id: 'CMANY', name: 'many', isMember: true });
    const res = await many.slack.slashCommand(many.appUrl, {
      text: `subscribe "${watched.name}"`,
      channelId: 'CMANY',
      userId: USER,
    });
    expect(res.status).toBe(200);
    await many.slack.waitFor(() => many.slack.responsesFor(res.responseUrlId)[0], 8000);

    const before = many.sim.requests.length;
    await many.slack.event(many.appUrl, { type: 'app_home_opened', user: USER, tab: 'home', channel: DM });
    const view = await many.slack.waitFor(() => many.slack.homeView(USER), 8000);
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(validateBlocks(view.blocks, 'home')).toBeUndefined();
    const ids = (view.blocks as Json[])
      .map((b) => String(b['block_id'] ?? ''))
      .filter((id) => id.startsWith('vis:home:'));
    expect(ids).toHaveLength(HOME_MAX_DETAILED);
    expect(ids[0]).toBe(`vis:home:${watched.id}`);
    const text = (view.blocks as Json[]).map(blockText).join('\n');
    expect(text).toContain(
      `*…and ${BRANDS - HOME_MAX_DETAILED} more* — \`/visibility brands\` lists them all:`,
    );
    expect(text).toContain(`• <#CMANY>: alerts and digest at 09:00`);
    // The cost of an opening: AI Pages usage for the brands shown in detail at most (the
    // seed brands' usage may still be remembered from the test above), none for the rest.
    const detailed = new Set(ids.map((id) => id.slice('vis:home:'.length)));
    const asked = many.sim.requests
      .slice(before)
      .filter((r) => r.path === '/ai-pages')
      .map((r) => String(r.query['brand_id']));
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.length).toBeLessThanOrEqual(HOME_MAX_DETAILED);
    expect(asked.filter((id) => !detailed.has(id))).toEqual([]);
  });
});
