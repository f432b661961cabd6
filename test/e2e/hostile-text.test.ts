/**
 * Hostile text end to end: the API simulator answers with a brand name, page titles, idea
 * queries and a competitor carrying `<!channel>` and a disguised link, and what the real
 * service sends to the local Slack (the ideas and citations replies, the ideas answer
 * shared in the channel, and a posted alert) carries them as text: escaped in the
 * notification `text` and in every block, and readable as typed once Slack decodes it.
 */
import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { liveMarkup, notPhish } from '../helpers/live-slack-markup.js';
import { acme as alertsAcme, useAlertsHarness } from './alerts-harness.js';
import { type ReadHarness, simJson, useReadHarness, visibleText } from './read-commands-harness.js';

const acme = SEED_BRANDS.acme;
const HOSTILE = 'Acme <!channel> <@U024BE7LH> <https://phish.example|Your dashboard> & <!subteam^S1|@sec>';
const decode = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Slack's answer for `path`, replaced (for `count` requests) by `edit` of the simulator's own. */
async function serveEdited(
  h: Pick<ReadHarness, 'sim'>,
  path: string,
  query: Record<string, string>,
  edit: (body: Record<string, unknown>) => void,
  count = 1,
): Promise<void> {
  const body = await simJson<Record<string, unknown>>(h.sim, path, query);
  edit(body);
  h.sim.control.injectFault({ kind: 'status', status: 200, path, body, count });
}

/** The brand list with Acme renamed, for as long as the bot keeps asking. */
async function hostileBrandName(h: ReadHarness): Promise<void> {
  await serveEdited(
    h,
    '/get-brands',
    {},
    (body) => {
      for (const b of body['brands'] as Array<{ id: string; name: string }>) {
        if (b.id === acme.id) b.name = HOSTILE;
      }
    },
    50,
  );
}

function expectEscaped(message: { text?: string; blocks?: unknown[] }): void {
  expect(message.text).toBeTruthy();
  expect(liveMarkup(message, { allowedUrls: notPhish })).toEqual([]);
  // Escaped, not dropped: the notification reads as the data did.
  expect(decode(message.text ?? '')).toContain('<!channel>');
}

describe('replies to commands', () => {
  const h = useReadHarness();

  it('citations: a brand name and page titles with a broadcast and a disguised link', async () => {
    await hostileBrandName(h);
    await serveEdited(
      h,
      '/get-citations',
      { brand_id: acme.id, view: 'list', limit: '20', offset: '0' },
      (body) => {
        for (const c of body['citations'] as Array<{ page_title: string | null }>) c.page_title = HOSTILE;
      },
    );
    const { reply } = await h.command(`citations ${acme.id}`);
    expectEscaped(reply);
    expect(reply.text).toContain('&lt;!channel&gt;');
    expect(visibleText(reply)).toContain(HOSTILE);
    expect(JSON.stringify(reply.blocks)).not.toContain('<https://phish.example');
  });

  it('ideas, and the ideas answer shared in the channel', async () => {
    await hostileBrandName(h);
    await serveEdited(
      h,
      '/get-content-ideas',
      { brand_id: acme.id, status: 'active', limit: '10', offset: '0' },
      (body) => {
        for (const i of body['ideas'] as Array<{ query: string; competitors_appearing: string[] }>) {
          i.query = HOSTILE;
          i.competitors_appearing = [HOSTILE];
        }
      },
      2,
    );
    const { reply } = await h.command(`ideas ${acme.id}`);
    expectEscaped(reply);
    expect(visibleText(reply)).toContain(HOSTILE);

    // The local Slack's own member (its default user) shares it.
    const sharer = 'U0LOCALUSR';
    const shared = await h.click(reply, 'vis:share');
    expect(shared.reply.response_type, shared.reply.text).toBe('in_channel');
    expect(liveMarkup(shared.reply, { allowedUrls: notPhish, allowedIds: [sharer] })).toEqual([]);
    expect(decode(shared.reply.text)).toContain('<!channel>');
    expect(JSON.stringify(shared.reply.blocks)).toContain(`Shared by <@${sharer}>`);
  });
});

describe('an alert posted to a channel', () => {
  const h = useAlertsHarness();

  it('a lost page whose title, and a competitor whose name, carry a broadcast and a disguised link', async () => {
    const ch = h.channel('CHOSTILE');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    const [lost, other] = h.sim.control.citationUrls(alertsAcme.id);
    h.advanceSnapshot({ lose: [lost!], competitorAppeared: [{ url: other!, competitor: HOSTILE }] });
    // The feed the job reads, with the lost page's title made hostile.
    const body = await simJson<{ events: Array<{ url: string; h1: string | null }> }>(
      h.sim,
      '/get-citations',
      {
        brand_id: alertsAcme.id,
        view: 'feed',
        days_back: '1',
      },
    );
    for (const e of body.events) if (e.url === lost) e.h1 = HOSTILE;
    h.sim.control.injectFault({ kind: 'status', status: 200, path: '/get-citations', body, count: 1 });

    await h.runJobs('citations');
    const posts = h.posts(ch);
    expect(posts).toHaveLength(1);
    const alert = posts[0]!;
    expectEscaped({ text: alert.text ?? '', blocks: alert.blocks ?? [] });
    expect(alert.text).toContain('&lt;https://phish.example|Your dashboard&gt;');
    const blocks = JSON.stringify(alert.blocks);
    expect(blocks).toContain('&lt;!channel&gt;');
    expect(blocks).not.toContain('<!channel>');
  });
});
