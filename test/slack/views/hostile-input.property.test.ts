/**
 * The hostile-input suite for what the bot posts outside command replies, and for the
 * replies the read and brand suites do not build: alerts (through the real detectors),
 * acknowledgements, digests, ops and held-alert messages, subscription replies, error
 * replies quoting the service or the user, shared copies, the App Home notice and help.
 * Brand names, page titles, URLs, domains, competitor and crawler names, service error
 * messages and typed text are generated hostile: broadcasts, mentions, subteams, foreign
 * links, bare entities, mrkdwn markers, emoji, RTL and very long text. Every rendered
 * string, the notification `text` first, must come out with nothing Slack would act on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../../src/alerts/alert-settings.js';
import { composeDigest } from '../../../src/alerts/compose-digest.js';
import { detectAiPages } from '../../../src/alerts/detect-ai-pages.js';
import { detectCitations } from '../../../src/alerts/detect-citations.js';
import { detectCrawler } from '../../../src/alerts/detect-crawler.js';
import { groupAlerts } from '../../../src/alerts/group-alerts.js';
import { ConflictError, ForbiddenError, InvalidParamsError, NotFoundError } from '../../../src/api/errors.js';
import type { Brand, ContentIdea, FeedEvent } from '../../../src/api/schemas/index.js';
import { acknowledgedBlocks, buildAlertMessage } from '../../../src/messages/alert-message.js';
import { fitMessage } from '../../../src/messages/block-kit-limits.js';
import { buildDigestMessage } from '../../../src/messages/digest-message.js';
import { groupHeldMessages } from '../../../src/messages/held-alerts-message.js';
import { escapeMrkdwn, mrkdwn, mrkdwnLink, userMention } from '../../../src/messages/mrkdwn.js';
import { buildOpsMessage } from '../../../src/messages/ops-message.js';
import { errorReply, textReply } from '../../../src/messages/reply.js';
import { truncateMrkdwn, truncatePlain } from '../../../src/messages/truncate-mrkdwn.js';
import { UserError } from '../../../src/messages/user-error.js';
import { parseCommandText } from '../../../src/slack/commands/parse-command-text.js';
import { resolveBrand } from '../../../src/slack/commands/resolve-brand.js';
import { helpDetailReply, helpOverviewReply } from '../../../src/slack/features/help/help-view.js';
import { noticeHomeView } from '../../../src/slack/features/home/home-view.js';
import {
  settingsReply,
  subscribedReply,
  subscriptionsReply,
} from '../../../src/slack/features/subscriptions/subscriptions-view.js';
import { sharedCopy } from '../../../src/slack/routers/actions/share.js';
import { subcommands } from '../../../src/slack/routers/commands/registry.js';
import type { Subscription } from '../../../src/store/subscriptions-repo.js';
import { aiPages } from '../../alerts/fixtures.js';
import { HOSTILE_STRINGS, hostileText, liveMarkup, notPhish } from '../../helpers/live-slack-markup.js';

const RUNS = { numRuns: 60 };
const S = DEFAULT_ALERT_SETTINGS;
const T0 = Date.parse('2025-03-01T06:00:00Z');
const name = hostileText.filter((s) => s.trim() !== '');
/** Real web addresses, some on the phishing domain (linking a cited URL is fine). */
const url = fc.oneof(
  fc.webUrl(),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom('https://phish.example/login?next=/&a=<b>', 'https://acme.example/a|b c'),
);
const brandRef = fc.record({ id: fc.uuid(), name });

/** What a posted message would carry: its notification text and its blocks, fitted. */
function expectNothingLive(message: { text: string; blocks: unknown[] }, urls: Iterable<string> = []): void {
  expect(liveMarkup(message, { allowedUrls: urls })).toEqual([]);
  expect(liveMarkup(fitMessage(message as never), { allowedUrls: urls })).toEqual([]);
}

const feedEvent: fc.Arbitrary<FeedEvent> = fc.record({
  event_type: fc.constantFrom('lost' as const, 'competitor_appeared' as const, 'sentiment_changed' as const),
  url,
  domain: name,
  h1: fc.option(name),
  source_type: fc.constant('organic'),
  timestamp: fc.constant('2025-03-01T00:00:00Z'),
  sentiment: fc.constant(20),
  prev_sentiment: fc.constant(90),
  competitor: fc.option(name),
}) as fc.Arbitrary<FeedEvent>;

/** A citation feed for `brand` carrying `events`, between two fixed snapshots. */
function feedOf<B, E>(brand: B, events: E[]) {
  return {
    brand,
    events,
    current_snapshot_date: '2025-03-01',
    previous_snapshot_date: '2025-02-22',
    total_current: 1,
    total_previous: 2,
  };
}

describe('alerts built by the real detectors from hostile data', () => {
  it('the alert message: notification text, header, sections, buttons and footer', () => {
    fc.assert(
      fc.property(
        brandRef,
        fc.array(feedEvent, { minLength: 1, maxLength: 8 }),
        fc.dictionary(name, fc.nat({ max: 5000 }), { minKeys: 1, maxKeys: 4 }),
        (brand, events, byCrawler) => {
          const feed = feedOf(brand, events);
          const citations = detectCitations(new Map(), feed, S, T0).alerts;
          const crawler = detectCrawler(
            null,
            {
              previous: { start: '2025-02-16', end: '2025-02-22', total: 10_000, byCrawler },
              current: { start: '2025-02-23', end: '2025-03-01', total: 10, byCrawler: {} },
            },
            S,
            brand,
            T0,
          ).alerts;
          const usage = detectAiPages(null, aiPages(95), S, brand, T0).alerts;
          for (const group of groupAlerts([...citations, ...crawler, ...usage])) {
            const message = buildAlertMessage(group);
            expectNothingLive(
              message,
              events.map((e) => e.url),
            );
            const acked = acknowledgedBlocks(message.blocks, 'U024BE7LH');
            expect(
              liveMarkup(acked, { allowedIds: ['U024BE7LH'], allowedUrls: events.map((e) => e.url) }),
            ).toEqual([]);
          }
        },
      ),
      RUNS,
    );
  });

  it('an acknowledgement by a crafted user id mentions nobody', () => {
    fc.assert(
      fc.property(hostileText, (userId) => {
        const blocks = acknowledgedBlocks([], userId);
        expect(liveMarkup(blocks)).toEqual([]);
      }),
      RUNS,
    );
  });

  it('held alerts grouped after quiet hours, including rows stored by an older version', () => {
    fc.assert(
      fc.property(
        brandRef,
        fc.array(feedEvent, { minLength: 2, maxLength: 5 }),
        name,
        (brand, events, raw) => {
          const feed = feedOf(brand, events);
          const held = detectCitations(new Map(), feed, S, T0).alerts.map((a) =>
            buildAlertMessage(groupAlerts([a])[0]!),
          );
          // A row from before escaping: raw text, no blocks.
          const old = { text: `${brand.name}: ${raw}`, metadata: held[0]?.metadata };
          for (const g of groupHeldMessages([...held, old])) {
            if (g.message)
              expectNothingLive(
                g.message,
                events.map((e) => e.url),
              );
          }
        },
      ),
      RUNS,
    );
  });
});

describe('digests, ops and subscription messages', () => {
  const idea = fc.record({
    id: fc.uuid(),
    query: name,
    opportunity_score: fc.nat({ max: 100 }),
    type: name,
    status: fc.constant('active'),
    insight: fc.option(name),
    competitors_appearing: fc.array(name, { maxLength: 3 }),
    ai_models: fc.array(name, { maxLength: 3 }),
    your_position: fc.option(fc.nat()),
    recommended_template: fc.option(name),
  }) as unknown as fc.Arbitrary<ContentIdea>;

  it('the daily digest', () => {
    fc.assert(
      fc.property(
        brandRef,
        fc.array(feedEvent, { maxLength: 6 }),
        fc.array(idea, { maxLength: 6 }),
        fc.dictionary(name, fc.nat({ max: 500 }), { maxKeys: 4 }),
        fc.boolean(),
        (brand, events, ideas, byCrawler, late) => {
          const digest = composeDigest({
            brand,
            date: '2025-03-01',
            late,
            feed: {
              brand,
              events: events.map((e, i) => ({ ...e, event_type: i % 2 ? 'new' : 'lost' }) as FeedEvent),
              current_snapshot_date: '2025-03-01',
              previous_snapshot_date: '2025-02-22',
              total_current: 10,
              total_previous: 12,
            },
            ideas,
            crawler: {
              previous: { start: '2025-02-16', end: '2025-02-22', total: 100, byCrawler },
              current: { start: '2025-02-23', end: '2025-03-01', total: 50, byCrawler },
            },
            aiPages: aiPages(42),
          });
          expectNothingLive(
            buildDigestMessage(digest),
            events.map((e) => e.url),
          );
        },
      ),
      RUNS,
    );
  });

  it('the digest when a section failed with a hostile reason', () => {
    fc.assert(
      fc.property(brandRef, name, (brand, reason) => {
        const digest = composeDigest({
          brand,
          date: '2025-03-01',
          feed: { error: reason },
          ideas: { error: reason },
          crawler: { error: reason },
          aiPages: { error: reason },
        });
        expectNothingLive(buildDigestMessage(digest));
      }),
      RUNS,
    );
  });

  it('ops messages quoting a job error', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom('key_rejected', 'quota_spent'),
          name.map((n) => `job_failing:${n}`),
        ),
        fc.option(name),
        fc.constantFrom('raised' as const, 'cleared' as const),
        (flag, detail, event) => {
          expectNothingLive(buildOpsMessage({ flag, detail, event, atMs: T0 }));
        },
      ),
      RUNS,
    );
  });

  it('subscriptions, subscribe and settings replies', () => {
    const sub: fc.Arbitrary<Subscription> = fc.record({
      id: fc.nat(),
      channelId: fc.constant('C0123'),
      brandId: fc.uuid(),
      brandName: name,
      alerts: fc.boolean(),
      digest: fc.boolean(),
      settings: fc.constant(S),
      createdBy: fc.constant('U1'),
      createdAtMs: fc.constant(T0),
      pausedReason: fc.option(name),
      pausedAtMs: fc.option(fc.constant(T0)),
      mutedUntilMs: fc.option(fc.constant(T0 + 3_600_000)),
      lastDigestDate: fc.constant(null),
    });
    fc.assert(
      fc.property(sub, fc.boolean(), fc.option(name), (s, created, zone) => {
        expectNothingLive(subscriptionsReply([{ sub: s, snoozes: [], held: 2 }], 'Europe/Berlin', T0));
        expectNothingLive(subscribedReply(s, { created, defaultTimezone: 'UTC' }));
        expectNothingLive(settingsReply(s, 'UTC'));
        // The change lines quote the settings, a time zone among them.
        expectNothingLive(settingsReply({ ...s, settings: { ...S, timezone: zone } }, 'UTC', { before: S }));
      }),
      RUNS,
    );
  });
});

describe('replies that quote the service or the person typing', () => {
  it('errors carrying the service’s message', () => {
    fc.assert(
      fc.property(name, name, (message, param) => {
        for (const err of [
          new NotFoundError(message, { serviceMessage: message }),
          new ConflictError(message, { serviceMessage: message }),
          new ForbiddenError(message, { serviceMessage: `viewer role: ${message}`, endpoint: '/brands/x' }),
          new InvalidParamsError(param, message),
        ]) {
          expectNothingLive(errorReply(err));
        }
      }),
      RUNS,
    );
  });

  it('a brand name the user typed that matches nothing, or several brands', () => {
    const brand = fc.record({ id: fc.uuid(), name }) as unknown as fc.Arbitrary<Brand>;
    fc.assert(
      fc.property(name, fc.array(brand, { maxLength: 12 }), (token, brands) => {
        try {
          resolveBrand([...brands, ...brands.slice(0, 1)], token);
        } catch (err) {
          expect(err).toBeInstanceOf(UserError);
          expectNothingLive(errorReply(err));
        }
      }),
      RUNS,
    );
  });

  it('command text the parser refuses', () => {
    fc.assert(
      fc.property(hostileText, (typed) => {
        const parsed = parseCommandText(`citations "${typed} --${typed}=`);
        if ('error' in parsed)
          expectNothingLive(errorReply(new UserError('bad_syntax', parsed.error, typed)));
      }),
      RUNS,
    );
  });

  it('a shared copy names who shared it, and only them', () => {
    fc.assert(
      fc.property(name, fc.oneof(fc.constant('U024BE7LH'), hostileText), (brandName, userId) => {
        const reply = textReply(mrkdwn`Citations for *${escapeMrkdwn(brandName)}*`);
        const shared = sharedCopy(reply, userId);
        expect(shared.responseType).toBe('in_channel');
        expect(liveMarkup(shared, { allowedIds: ['U024BE7LH'] })).toEqual([]);
      }),
      RUNS,
    );
  });

  it('the App Home notice, help and usage lines', () => {
    fc.assert(
      fc.property(name, (text) => {
        expect(liveMarkup(noticeHomeView(escapeMrkdwn(text)))).toEqual([]);
      }),
      RUNS,
    );
    expectNothingLive(helpOverviewReply(subcommands));
    for (const s of subcommands) expectNothingLive(helpDetailReply(s));
  });
});

describe('the escaping module itself', () => {
  it('escapeMrkdwn leaves nothing live, whatever the input', () => {
    fc.assert(
      fc.property(hostileText, (s) => {
        expect(liveMarkup({ text: escapeMrkdwn(s) })).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('links only to http(s) URLs, with the label escaped', () => {
    fc.assert(
      fc.property(fc.oneof(url, hostileText), hostileText, (target, label) => {
        const link = mrkdwnLink(target, label);
        expect(liveMarkup({ text: link }, { allowedUrls: [target] })).toEqual([]);
        if (!/^https?:\/\//i.test(target.trim())) expect(link).not.toContain('<');
      }),
      { numRuns: 300 },
    );
    expect(mrkdwnLink('javascript:alert(1)', 'x')).toBe('x');
    expect(mrkdwnLink('https://phish.example', 'Your <b> & dashboard')).toBe(
      '<https://phish.example/|Your &lt;b&gt; &amp; dashboard>',
    );
  });

  it('mentions only well-formed ids', () => {
    expect(userMention('U024BE7LH')).toBe('<@U024BE7LH>');
    for (const bad of HOSTILE_STRINGS) expect(userMention(bad)).not.toContain('<');
  });

  it('cutting escaped text to any length never halves an entity or leaves a link open', () => {
    fc.assert(
      fc.property(hostileText, fc.integer({ min: 1, max: 400 }), (s, max) => {
        for (const cut of [truncateMrkdwn(escapeMrkdwn(s), max), truncatePlain(escapeMrkdwn(s), max)]) {
          expect(cut.length).toBeLessThanOrEqual(Math.max(max, 1));
          expect(liveMarkup({ text: cut })).toEqual([]);
          // A cut mid-entity would leave "&am" or "&l" behind.
          expect(/&(?!amp;|lt;|gt;)/.test(cut)).toBe(false);
        }
        const withLink = mrkdwn`${escapeMrkdwn(s)} ${mrkdwnLink('https://acme.example/page', s)}`;
        for (const cut of [truncateMrkdwn(withLink, max), truncatePlain(withLink, max)]) {
          expect(liveMarkup({ text: `${cut} >` }, { allowedUrls: notPhish })).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
