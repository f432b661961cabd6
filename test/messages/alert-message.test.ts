import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { detectAiPages } from '../../src/alerts/detect-ai-pages.js';
import { detectCitations } from '../../src/alerts/detect-citations.js';
import { detectCrawler } from '../../src/alerts/detect-crawler.js';
import { groupAlerts } from '../../src/alerts/group-alerts.js';
import { type Alert, type AlertNote, alertKinds, openViews } from '../../src/alerts/types.js';
import {
  ALERT_ACTIONS,
  ALERT_BLOCK_IDS,
  acknowledgedBlocks,
  acknowledgedRowBlocks,
  buildAlertMessage,
} from '../../src/messages/alert-message.js';
import type { KnownBlock } from '../../src/messages/block-kit-types.js';
import { groupHeldMessages } from '../../src/messages/held-alerts-message.js';
import { aiPages, BRAND, ev, feed, T0 } from '../alerts/fixtures.js';
import { limitProblems } from '../slack/views/message-limit-problems.js';

const S = DEFAULT_ALERT_SETTINGS;
type Json = Record<string, unknown>;

function buttons(blocks: unknown[]): Json[] {
  return (blocks as Json[]).flatMap((b) => [
    ...(b['type'] === 'actions' ? (b['elements'] as Json[]) : []),
    ...(b['accessory'] ? [b['accessory'] as Json] : []),
  ]);
}
const texts = (blocks: unknown) => JSON.stringify(blocks);

function realisticGroup() {
  const citations = detectCitations(
    new Map(),
    feed([
      ev('lost', 'https://blog.example.com/best-tools', '2025-03-01T00:00:00Z', {
        h1: 'Best <tools> & more',
      }),
      ev('sentiment_changed', 'https://news.example.com/acme', '2025-03-01T00:00:00Z', {
        prev_sentiment: 80,
        sentiment: 40,
      }),
    ]),
    S,
    T0,
  ).alerts;
  const crawler = detectCrawler(
    null,
    {
      previous: { start: '2025-02-16', end: '2025-02-22', total: 1000, byCrawler: { GPTBot: 1000 } },
      current: { start: '2025-02-23', end: '2025-03-01', total: 300, byCrawler: { GPTBot: 300 } },
    },
    S,
    BRAND,
    T0,
  ).alerts;
  const usage = detectAiPages(null, aiPages(91), S, BRAND, T0).alerts;
  return groupAlerts([...citations, ...crawler, ...usage])[0]!;
}

describe('buildAlertMessage', () => {
  const group = realisticGroup();
  const msg = buildAlertMessage(group);

  it('renders one message for the brand with a header, a section per alert and a footer', () => {
    expect(limitProblems(msg)).toEqual([]);
    expect(msg.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Acme Analytics: 4 alerts' } });
    const body = texts(msg.blocks);
    expect(body).toContain('*Why it matters:*');
    expect(body).toContain('*What to do:*');
    // Each alert's change in one line, before → after.
    expect(body).toContain(
      '*Sentiment fell 40 points on https://news.example.com/acme* — 80/100 on Feb 22, 2025 → 40/100',
    );
    expect(body).toContain('now 91 % used');
    // User and service text is escaped for mrkdwn.
    expect(body).toContain('Best &lt;tools&gt; &amp; more');
    expect(msg.text).toContain('Acme Analytics: 4 alerts');
  });

  it('has open, acknowledge and per-kind snooze buttons with the agreed action ids and values', () => {
    const all = buttons(msg.blocks);
    const ids = all.map((b) => b['action_id']);
    expect(ids).toContain('vis:open:citations-feed');
    expect(ids).toContain('vis:open:crawler');
    expect(ids).toContain('vis:open:aipages');
    const ack = all.find((b) => b['action_id'] === ALERT_ACTIONS.ack)!;
    expect(ack['value']).toBe(group.key);
    // Every alert has its own menu: Acknowledge and Snooze of its kind.
    const menus = all.filter((b) => b['type'] === 'overflow');
    const snoozes = menus.map((m) => (m['options'] as Json[]).map((o) => JSON.parse(String(o['value']))));
    expect(snoozes).toEqual(
      ['citation_lost', 'citation_sentiment', 'crawler_drop', 'ai_pages_threshold'].map((kind) => [
        { do: 'ack' },
        { do: 'snooze', kind, brandId: BRAND.id },
      ]),
    );
    expect(new Set(menus.map((m) => m['action_id'])).size).toBe(4);
    const open = all.find((b) => b['action_id'] === 'vis:open:crawler')!;
    // The crawler view opens on the days the alert compared.
    expect(JSON.parse(String(open['value']))).toEqual({
      brandId: BRAND.id,
      range: '2025-02-23..2025-03-01',
      compare: 'true',
    });
    // Two pages behind the change feed: it opens on the window they share, on neither page.
    const feedButton = all.find((b) => b['action_id'] === 'vis:open:citations-feed')!;
    expect(JSON.parse(String(feedButton['value']))).toEqual({ brandId: BRAND.id, 'days-back': '7' });
  });

  it('carries the dedupe key in message metadata', () => {
    expect(msg.metadata.event_type).toBe('visibility_alert');
    expect(msg.metadata.event_payload['dedupe_key']).toBe(group.key);
    expect(buildAlertMessage(group, { dedupeKey: 'C1:x' }).metadata.event_payload['dedupe_key']).toBe('C1:x');
  });

  it('lists many alerts of one kind compactly and counts the rest', () => {
    const events = Array.from({ length: 400 }, (_, i) =>
      ev(
        'lost',
        `https://site${i}.example.com/a-rather-long-path/that-goes-on/${'x'.repeat(40)}`,
        '2025-03-01T00:00:00Z',
      ),
    );
    const many = groupAlerts(detectCitations(new Map(), feed(events), S, T0).alerts)[0]!;
    const m = buildAlertMessage(many);
    expect(limitProblems(m)).toEqual([]);
    const body = texts(m.blocks);
    // One shared explanation for the kind, not one per alert.
    expect(body.match(/Why they matter/g)).toHaveLength(1);
    const more = /…and (\d+) more alerts/.exec(body);
    expect(more).not.toBeNull();
    const listed = (body.match(/\*Cited page lost: https:\/\/site/g) ?? []).length;
    expect(listed).toBeGreaterThan(10);
    expect(listed + Number(more![1])).toBe(400);
  });

  it('shows a note as a context line', () => {
    const note = detectAiPages(null, { unavailable: 'no_entitlement' }, S, BRAND, T0).notes;
    const g = groupAlerts(group.alerts, note)[0]!;
    expect(texts(buildAlertMessage(g).blocks)).toContain(
      ':information_source: AI Pages is not part of your plan',
    );
    const onlyNote = buildAlertMessage(groupAlerts([], note)[0]!);
    expect(limitProblems(onlyNote)).toEqual([]);
    expect(buttons(onlyNote.blocks)).toEqual([]);
  });
});

describe('buildAlertMessage: a grouped message reads like a colleague wrote it', () => {
  const competitorFeed = (names: string[]) =>
    names.map((competitor, i) =>
      ev('competitor_appeared', `https://review${i}.example.com/tools`, '2025-03-01T00:00:00Z', {
        competitor,
      }),
    );
  const lost = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      ev('lost', `https://blog${i}.example.com/guide`, '2025-03-01T00:00:00Z'),
    );

  it('says why and what to do once per kind, names competitors with the right verb, and gives each alert a menu', () => {
    const alerts = detectCitations(
      new Map(),
      feed([...lost(2), ...competitorFeed(['Pendo', 'Rippling'])]),
      S,
      T0,
    ).alerts;
    const m = buildAlertMessage(groupAlerts(alerts)[0]!);
    expect(limitProblems(m)).toEqual([]);
    const body = texts(m.blocks);
    expect(body.match(/Why they matter/g)).toHaveLength(2);
    expect(body.match(/What to do/g)).toHaveLength(2);
    expect(body).toContain('Pendo and Rippling now appear on pages AI models cite for Acme Analytics.');
    const rows = (m.blocks as Json[]).filter((b) =>
      String(b['block_id'] ?? '').startsWith(ALERT_BLOCK_IDS.rowPrefix),
    );
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect((row['accessory'] as Json)['type']).toBe('overflow');
      expect(String((row['text'] as Json)['text'])).toMatch(/→/);
    }
    expect(m.blocks[0]).toMatchObject({ text: { text: 'Acme Analytics: 4 alerts' } });
  });

  it('one competitor: "appears", singular', () => {
    const m = buildAlertMessage(
      groupAlerts(
        detectCitations(new Map(), feed([...lost(1), ...competitorFeed(['Pendo'])]), S, T0).alerts,
      )[0]!,
    );
    expect(texts(m.blocks)).toContain('Pendo now appears on a page AI models cite for Acme Analytics.');
    expect(texts(m.blocks)).toContain('*Why it matters:*');
  });

  it('a single alert is named in the header only and keeps its Snooze button', () => {
    const m = buildAlertMessage(groupAlerts(detectCitations(new Map(), feed(lost(1)), S, T0).alerts)[0]!);
    const header = String((m.blocks[0] as Json & { text: Json })['text']['text']);
    expect(header).toBe('Acme Analytics: Cited page lost: https://blog0.example.com/guide');
    expect(texts(m.blocks.slice(1))).not.toContain('Cited page lost:');
    expect(buttons(m.blocks).map((b) => b['action_id'])).toContain(ALERT_ACTIONS.snooze);
  });
});

describe('acknowledgedRowBlocks', () => {
  const alerts = detectCitations(
    new Map(),
    feed([
      ev('lost', 'https://a.example.com/x', '2025-03-01T00:00:00Z'),
      ev('lost', 'https://b.example.com/y', '2025-03-01T00:00:00Z'),
    ]),
    S,
    T0,
  ).alerts;
  const msg = buildAlertMessage(groupAlerts(alerts)[0]!);
  const rowIds = (msg.blocks as Json[])
    .map((b) => String(b['block_id'] ?? ''))
    .filter((id) => id.startsWith(ALERT_BLOCK_IDS.rowPrefix));

  it('marks only that row, turns its menu into a Snooze button, and replaces rather than stacks names', () => {
    const once = acknowledgedRowBlocks(msg.blocks, rowIds[0]!, 'U1', BRAND.id)!;
    const twice = acknowledgedRowBlocks(once, rowIds[0]!, 'U2', BRAND.id)!;
    expect(limitProblems({ text: msg.text, blocks: twice })).toEqual([]);
    const [first, second] = rowIds.map((id) => (twice as Json[]).find((b) => b['block_id'] === id)!);
    expect(texts(first)).toContain('Acknowledged by <@U2>');
    expect(texts(first)).not.toContain('<@U1>');
    expect(first!['accessory']).toMatchObject({ type: 'button', action_id: ALERT_ACTIONS.snooze });
    expect(JSON.parse(String((first!['accessory'] as Json)['value']))).toEqual({
      brandId: BRAND.id,
      kind: 'citation_lost',
    });
    expect(texts(second)).not.toContain('Acknowledged');
    expect((second!['accessory'] as Json)['type']).toBe('overflow');
  });

  it('answers null for a row that is not in the message', () => {
    expect(acknowledgedRowBlocks(msg.blocks, 'vis:alert:row:9:gone', 'U1', BRAND.id)).toBeNull();
  });
});

describe('acknowledgedBlocks', () => {
  const msg = buildAlertMessage(realisticGroup());

  it('removes the acknowledge button and says who acknowledged', () => {
    const acked = acknowledgedBlocks(msg.blocks, 'U12345');
    expect(buttons(acked).some((b) => b['action_id'] === ALERT_ACTIONS.ack)).toBe(false);
    expect(buttons(acked).some((b) => b['action_id'] === 'vis:open:crawler')).toBe(true);
    expect(texts(acked)).toContain('Acknowledged by <@U12345>');
    expect(limitProblems({ text: 'x', blocks: acked })).toEqual([]);
  });

  it('a second acknowledgement replaces the first line, never stacks', () => {
    const twice = acknowledgedBlocks(acknowledgedBlocks(msg.blocks, 'U1'), 'U2');
    expect(texts(twice)).not.toContain('<@U1>');
    expect((texts(twice).match(/Acknowledged by/g) ?? []).length).toBe(1);
  });

  it('cannot be tricked into a broadcast by a crafted user id', () => {
    // Not a user id: nobody is mentioned, and nothing of it reaches Slack as markup.
    const text = texts(acknowledgedBlocks(msg.blocks, 'U1> <!channel'));
    expect(text).not.toContain('<!channel');
    expect(text).not.toContain('<@');
    expect(text).toContain('Acknowledged by someone');
  });

  it('works on a message it did not build, staying within 50 blocks', () => {
    const blocks: KnownBlock[] = Array.from({ length: 50 }, () => ({ type: 'divider' }));
    const acked = acknowledgedBlocks(blocks, 'U9');
    expect(acked).toHaveLength(50);
    expect(texts(acked.at(-1))).toContain('<@U9>');
  });
});

describe('buildAlertMessage: Block Kit limits hold for any input (property)', () => {
  const nasty = fc.oneof(
    fc.string({ maxLength: 50 }),
    fc.string({ unit: 'grapheme', maxLength: 400 }),
    fc.constantFrom('<!channel>', '*bold _nested ~x', '&amp;&lt;', '"\\\n\t', '😀'.repeat(60)),
    fc.string({ minLength: 2000, maxLength: 6000 }),
  );
  const alertArb: fc.Arbitrary<Alert> = fc.record({
    kind: fc.constantFrom(...alertKinds),
    brandId: fc.constant(BRAND.id),
    brandName: fc.constant(BRAND.name),
    key: fc.uuid(),
    title: nasty,
    whatChanged: nasty,
    before: fc.option(nasty),
    after: fc.option(nasty),
    whyItMatters: nasty,
    whatToDo: nasty,
    subject: nasty,
    open: fc.record({
      view: fc.constantFrom(...openViews),
      params: fc.option(fc.dictionary(fc.string({ maxLength: 10 }), nasty, { maxKeys: 3 }), {
        nil: undefined,
      }),
    }),
    detectedAtMs: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  });
  const noteArb: fc.Arbitrary<AlertNote> = fc.record({
    kind: fc.constant('ai_pages_unavailable' as const),
    brandId: fc.constant(BRAND.id),
    brandName: fc.constant(BRAND.name),
    key: fc.uuid(),
    text: nasty,
    reason: fc.constantFrom('no_entitlement' as const, 'not_set_up' as const),
  });

  it('random and huge groups', () => {
    fc.assert(
      fc.property(
        fc.array(alertArb, { maxLength: 120 }),
        fc.array(noteArb, { maxLength: 12 }),
        nasty,
        fc.integer({ min: 0, max: 5 }),
        (alerts, notes, brandName, fullPerKind) => {
          fc.pre(alerts.length + notes.length > 0);
          const withName = alerts.map((a) => ({ ...a, brandName: brandName || 'B' }));
          const group = groupAlerts(
            withName,
            notes.map((n) => ({ ...n, brandName: brandName || 'B' })),
          )[0]!;
          const m = buildAlertMessage(group, { fullPerKind });
          expect(limitProblems(m)).toEqual([]);
          const acked = acknowledgedBlocks(m.blocks, 'U123');
          expect(limitProblems({ text: m.text, blocks: acked })).toEqual([]);
          const more = /…and (\d+) more alert/.exec(texts(m.blocks));
          if (more) expect(Number(more[1])).toBeLessThanOrEqual(alerts.length);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('held grouped messages merged into one', () => {
  it('keep every alert row with its own menu, within the limits, each still acknowledgeable', () => {
    const make = (host: string) =>
      buildAlertMessage(
        groupAlerts(
          detectCitations(
            new Map(),
            feed([
              ev('lost', `https://${host}.example.com/a`, '2025-03-01T00:00:00Z'),
              ev('lost', `https://${host}.example.com/b`, '2025-03-01T00:00:00Z'),
            ]),
            S,
            T0,
          ).alerts,
        )[0]!,
      );
    const [group] = groupHeldMessages([make('one'), make('two')]);
    const merged = group!.message!;
    expect(limitProblems(merged)).toEqual([]);
    const rowIds = (merged.blocks as Json[])
      .map((b) => String(b['block_id'] ?? ''))
      .filter((id) => id.startsWith(ALERT_BLOCK_IDS.rowPrefix));
    expect(rowIds).toHaveLength(4);
    const acked = acknowledgedRowBlocks(merged.blocks, rowIds[3]!, 'U7', BRAND.id)!;
    expect(texts(acked.find((b) => 'block_id' in b && b.block_id === rowIds[3]))).toContain(
      'two.example.com/b',
    );
    expect(texts(acked)).toContain('Acknowledged by <@U7>');
  });
});
