/**
 * The brand view builders with random and huge data (hundreds of markets, long aliases,
 * huge names, mrkdwn characters everywhere): their output passes the local Slack's
 * validateBlocks and docs/slack.md's limits as built, before the central fitter, so long
 * lists end in our own "…and N more" and the buttons are never cut off the end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LimiterState } from '../../../src/api/limiter/types.js';
import type { Brand, LocationResponse, Market } from '../../../src/api/schemas/index.js';
import { COUNTRIES } from '../../../src/countries.js';
import { validateBlocks } from '../../../src/dev/local-slack/index.js';
import { fitMessage } from '../../../src/messages/block-kit-limits.js';
import { mrkdwn, safeLinkUrl } from '../../../src/messages/mrkdwn.js';
import type { Reply } from '../../../src/messages/reply.js';
import { aliasesModal } from '../../../src/slack/features/aliases/aliases-modal.js';
import { aliasesChangedReply, aliasesReply } from '../../../src/slack/features/aliases/aliases-view.js';
import { brandDetailReply } from '../../../src/slack/features/brands/brand-detail-view.js';
import {
  type AiPagesGlance,
  brandsHomeView,
  HOME_MAX_DETAILED,
} from '../../../src/slack/features/home/home-view.js';
import { locationModal } from '../../../src/slack/features/location/location-modal.js';
import { locationSetReply } from '../../../src/slack/features/location/location-view.js';
import { addMarketModal } from '../../../src/slack/features/markets/add-market-modal.js';
import {
  confirmRemoveMarketReply,
  marketAddedReply,
  marketRemovedReply,
  marketsReply,
} from '../../../src/slack/features/markets/markets-view.js';
import {
  apiUsageBlocks,
  limiterBlocks,
  serviceBlocks,
  statusReply,
} from '../../../src/slack/features/status/status-view.js';
import { hostileText, liveMarkup, notPhish } from '../../helpers/live-slack-markup.js';
import { limitProblems } from './message-limit-problems.js';

const RUNS = { numRuns: 40 };
const NASTY = '<&>*_~`"\\|';

/** Names from short to absurd, with mrkdwn and JSON-escaped characters. */
const name = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.string({ minLength: 1, maxLength: 3000, unit: 'grapheme' }),
  fc.integer({ min: 1, max: 800 }).map((n) => NASTY.repeat(n)),
  // Quotes and backslashes weigh double once JSON-escaped.
  fc.integer({ min: 1, max: 2000 }).map((n) => '"\\'.repeat(n)),
  fc.integer({ min: 1, max: 5000 }).map((n) => 'Acme '.repeat(n)),
  hostileText.filter((s) => s.trim() !== ''),
);
const code = fc.oneof(
  fc.constantFrom(...COUNTRIES.map((c) => c.code)),
  fc.string({ minLength: 1, maxLength: 12 }),
);

const market = (brandId: string): fc.Arbitrary<Market> =>
  fc.record({
    id: fc.uuid(),
    brand_id: fc.constant(brandId),
    location: code,
    is_primary: fc.boolean(),
    active: fc.boolean(),
    created_at: fc.constant('2025-01-01T00:00:00Z'),
    market_name: fc.option(name),
  });

const brand: fc.Arbitrary<Brand> = fc.uuid().chain((id) =>
  fc.record({
    id: fc.constant(id),
    name,
    website: fc.option(fc.oneof(fc.webUrl(), name)),
    active: fc.boolean(),
    role: fc.constantFrom('owner' as const, 'editor' as const, 'viewer' as const),
    location: fc.option(code),
    location_region: fc.option(name),
    location_city: fc.option(name),
    markets: fc.oneof(
      fc.array(market(id), { maxLength: 8 }),
      fc.array(market(id), { minLength: 100, maxLength: 400 }),
    ),
    aliases: fc.oneof(fc.array(name, { maxLength: 10 }), fc.array(name, { minLength: 200, maxLength: 600 })),
  }),
);

function expectValidMessage(reply: Reply, keeps?: string): void {
  expect(limitProblems(reply)).toEqual([]);
  expect(liveMarkup(reply, { allowedUrls: notPhish })).toEqual([]);
  const fitted = fitMessage(reply);
  // The central fitter has nothing to cut: the builder stayed within the limits itself.
  expect(fitted.blocks).toHaveLength(reply.blocks.length);
  if (keeps) expect(JSON.stringify(reply.blocks)).toContain(`"action_id":"${keeps}"`);
}

describe('brand views within Slack limits', () => {
  it('brand details', () => {
    fc.assert(
      fc.property(brand, (b) => expectValidMessage(brandDetailReply(b), 'vis:share')),
      RUNS,
    );
  });

  it('a website with a user name before its host is shown as text, never as a link', () => {
    // Found by the property above: the link showed "&" and opened a URL carrying the rest.
    const website = '<mailto:boss@phish.example|Mail your boss>@&';
    const b = fc.sample(brand, { numRuns: 1, seed: 1 })[0]!;
    const reply = brandDetailReply({ ...b, website, markets: [], aliases: [] });
    expect(liveMarkup(reply, { allowedUrls: notPhish })).toEqual([]);
    expect(JSON.stringify(reply.blocks)).toContain('phish.example');
    expect(safeLinkUrl('https://trusted.example@elsewhere.example/')).toBeUndefined();
    expect(safeLinkUrl('https://elsewhere.example/')).toBe('https://elsewhere.example/');
  });

  it('markets list', () => {
    fc.assert(
      fc.property(brand, (b) => expectValidMessage(marketsReply(b), 'vis:share')),
      RUNS,
    );
  });

  it('aliases list', () => {
    fc.assert(
      fc.property(brand, (b) => expectValidMessage(aliasesReply(b, b.aliases ?? []), 'vis:share')),
      RUNS,
    );
  });

  it('market and alias change replies', () => {
    fc.assert(
      fc.property(brand, market('x'), fc.array(name, { maxLength: 300 }), (b, m, xs) => {
        expectValidMessage(confirmRemoveMarketReply(b, m), 'vis:markets:remove');
        expectValidMessage(marketAddedReply(b, m));
        expectValidMessage(marketRemovedReply(b, m.location));
        expectValidMessage(
          aliasesChangedReply(b.name, xs, { added: xs.slice(0, 50), removed: xs.slice(50) }),
        );
      }),
      RUNS,
    );
  });

  it('location reply', () => {
    const response: fc.Arbitrary<LocationResponse> = fc.record({
      brand_id: fc.uuid(),
      location: code,
      location_region: fc.option(name),
      location_city: fc.option(name),
      location_provider_code: fc.option(fc.integer({ min: 1 })),
      primary_market: market('x'),
    });
    fc.assert(
      fc.property(name, response, (n, r) => expectValidMessage(locationSetReply(n, r))),
      RUNS,
    );
  });

  it('status', () => {
    const state: fc.Arbitrary<LimiterState> = fc.record({
      plan: name,
      tokens: fc.double({ min: 0, max: 1e6, noNaN: true }),
      capacity: fc.integer({ min: 1, max: 1e6 }),
      refillPerSecond: fc.double({ min: 0, max: 1e3, noNaN: true }),
      usedToday: fc.integer({ min: 0, max: 1e7 }),
      dailyLimit: fc.option(fc.integer({ min: 0, max: 1e7 })),
      dailyResetAt: fc.integer({ min: 0, max: 4e12 }),
      keyPausedUntil: fc.option(fc.integer({ min: 0, max: 4e12 })),
      endpointPauses: fc.dictionary(
        fc.constantFrom('getBrands', 'addMarket', 'getCitations', 'unknownKey'),
        fc.integer({ min: 0, max: 4e12 }),
      ),
      lanes: fc.record({
        interactive: fc.record({ queued: fc.nat() }),
        background: fc.record({ queued: fc.nat() }),
      }),
      waitedMs: fc.record({ interactive: fc.nat(), background: fc.nat() }),
      rateLimitedCount: fc.nat(),
    }) as fc.Arbitrary<LimiterState>;
    fc.assert(
      fc.property(state, fc.integer({ min: 0, max: 4e12 }), (s, now) => {
        const parts = [
          apiUsageBlocks(s),
          limiterBlocks(s, now),
          serviceBlocks({ reachable: false, checkedAt: new Date(now).toISOString(), lastStatus: 503 }),
        ];
        expectValidMessage(statusReply(parts, mrkdwn`status`), 'vis:share');
      }),
      RUNS,
    );
  });
});

describe('modals and the App Home within Slack limits', () => {
  it('the three brand forms', () => {
    fc.assert(
      fc.property(brand, fc.option(fc.string({ minLength: 1, maxLength: 20 })), (b, channelId) => {
        const where = channelId ? { channelId } : {};
        for (const view of [
          addMarketModal(b, where),
          locationModal(b, where),
          aliasesModal(b, b.aliases ?? [], where),
        ]) {
          expect(validateBlocks(view.blocks, 'modal')).toBeUndefined();
          expect(liveMarkup(view, { allowedUrls: notPhish })).toEqual([]);
          expect((view.title as { text: string }).text.length).toBeLessThanOrEqual(24);
          expect((view.private_metadata ?? '').length).toBeLessThanOrEqual(3000);
        }
      }),
      RUNS,
    );
  });

  it('the brands at a glance, for any number of brands', () => {
    const glance: fc.Arbitrary<AiPagesGlance> = fc.oneof(
      fc.record({
        status: fc.constant('ok' as const),
        enabled: fc.boolean(),
        percentageUsed: fc.option(fc.double({ min: -10, max: 500, noNaN: true })),
        resetDate: fc.option(fc.string()),
      }),
      fc.constantFrom(
        { status: 'not_included' as const },
        { status: 'not_set_up' as const },
        { status: 'unavailable' as const },
        { status: 'not_loaded' as const },
      ),
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ brand, aiPages: glance }), { maxLength: 120 }),
        fc.integer({ min: 0, max: 4e12 }),
        (glances, now) => {
          const view = brandsHomeView(glances, now);
          expect(validateBlocks(view.blocks, 'home')).toBeUndefined();
          expect(liveMarkup(view, { allowedUrls: notPhish })).toEqual([]);
          const text = JSON.stringify(view.blocks);
          // Every brand is on the tab: in detail, or by name in the "Also" list.
          if (glances.length > HOME_MAX_DETAILED)
            expect(text).toContain(`…and ${glances.length - HOME_MAX_DETAILED} more*`);
        },
      ),
      { numRuns: 30 },
    );
  });
});
