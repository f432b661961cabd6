/**
 * The App Home dashboard as built, before the central fitter: within Slack's limits for any
 * number of brands, subscriptions and alerts (a workspace with many brands gets "…and N
 * more — /visibility brands", never a cut-off tab), with hostile text from the service or
 * the database never turning into live markup, and the only mentions being the channels
 * and people the store names.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../../../src/alerts/alert-settings.js';
import type { Brand } from '../../../../src/api/schemas/index.js';
import { validateBlocks } from '../../../../src/dev/local-slack/index.js';
import {
  type BrandGlance,
  brandsHomeView,
  HOME_MAX_DETAILED,
  quotaText,
} from '../../../../src/slack/features/home/home-view.js';
import type { AlertGlance, BrandActivity } from '../../../../src/slack/features/home/load-brand-activity.js';
import { outboxStatuses } from '../../../../src/store/outbox-repo.js';
import type { Subscription } from '../../../../src/store/subscriptions-repo.js';
import { hostileText, liveMarkup, notPhish } from '../../../helpers/live-slack-markup.js';

const NOW = Date.UTC(2031, 0, 15, 12);
const HOUR = 3_600_000;

const brandOf = (i: number, over: Partial<Brand> = {}): Brand => ({
  id: `b${i}`,
  name: `Brand ${String(i).padStart(3, '0')}`,
  website: null,
  active: true,
  role: 'owner',
  location: 'US',
  location_region: null,
  location_city: null,
  ...over,
});

const subscription = (
  channelId: string,
  brandId: string,
  over: Partial<Subscription> = {},
): Subscription => ({
  id: 1,
  channelId,
  brandId,
  brandName: 'x',
  alerts: true,
  digest: true,
  settings: DEFAULT_ALERT_SETTINGS,
  createdBy: 'U1',
  createdAtMs: NOW - HOUR,
  pausedReason: null,
  pausedAtMs: null,
  mutedUntilMs: null,
  lastDigestDate: null,
  ...over,
});

const alertOf = (over: Partial<AlertGlance> = {}): AlertGlance => ({
  channelId: 'C1',
  createdAtMs: NOW - HOUR,
  sentAtMs: NOW - HOUR,
  status: 'sent',
  holdUntilMs: null,
  holdReason: null,
  alertCount: 1,
  kinds: ['crawler_drop'],
  headline: null,
  acknowledgedBy: [],
  snoozedUntilMs: null,
  snoozedBy: null,
  ...over,
});

const texts = (blocks: unknown[]) =>
  (blocks as Array<{ text?: { text?: string } }>).map((b) => b.text?.text ?? '').join('\n');

describe('the App Home dashboard view', () => {
  it('lists channels, alert states and the quota in words a reader follows', () => {
    const activity: BrandActivity = {
      subscriptions: [
        subscription('C1', 'b1', { settings: { ...DEFAULT_ALERT_SETTINGS, timezone: 'Europe/Berlin' } }),
        subscription('C2', 'b1', { digest: false, mutedUntilMs: NOW + 2 * HOUR }),
        subscription('C3', 'b1', { alerts: false, pausedReason: 'the channel was archived' }),
      ],
      alerts: [
        alertOf({
          status: 'held',
          sentAtMs: null,
          holdUntilMs: NOW + 2 * HOUR,
          holdReason: 'mute',
          channelId: 'C2',
        }),
        alertOf({
          alertCount: 3,
          kinds: ['citation_lost', 'citation_competitor'],
          acknowledgedBy: ['U7', 'U8'],
          snoozedUntilMs: NOW + 20 * HOUR,
          snoozedBy: 'U8',
        }),
        // One alert reads as its own headline, without the brand the tab already names.
        alertOf({ headline: 'Brand 001: Lost <!channel> & "more"', channelId: 'C3' }),
        // A snooze that ended is not a state any more.
        alertOf({ snoozedUntilMs: NOW - 1, snoozedBy: 'U8', status: 'failed', sentAtMs: null }),
      ],
    };
    const view = brandsHomeView([{ brand: brandOf(1), aiPages: { status: 'not_set_up' }, activity }], NOW, {
      quota: { plan: 'scale', usedToday: 8_512, dailyLimit: 10_000, dailyResetAt: NOW + 12 * HOUR },
      defaultTimezone: 'America/New_York',
    });
    const t = texts(view.blocks);
    expect(t).toContain(
      '*API usage today:* 8,512 of 10,000 requests  `▰▰▰▰▰▰▰▰▰▱ 85 %` :warning: · resets <!date^',
    );
    expect(t).toContain('• <#C1>: alerts and digest at 09:00 Europe/Berlin\n');
    expect(t).toContain(
      `• <#C2>: alerts, no digest · :no_bell: muted until <!date^${(NOW + 2 * HOUR) / 1000}^`,
    );
    expect(t).toContain(
      '• <#C3>: digest at 09:00 America/New_York · :double_vertical_bar: paused: the channel was archived',
    );
    expect(t).toContain(
      `• *crawler visits down* in <#C2>: :hourglass: held until <!date^${(NOW + 2 * HOUR) / 1000}^`,
    );
    expect(t).toMatch(/held until <!date\^\d+\^[^>]+> \(muted in that channel\)\n/);
    expect(t).toContain(
      `• *3 alerts* (cited pages lost, competitors on cited pages) in <#C1>: posted <!date^${(NOW - HOUR) / 1000}^`,
    );
    expect(t).toContain(
      `:white_check_mark: acknowledged by <@U7>, <@U8> · :zzz: snoozed until <!date^${(NOW + 20 * HOUR) / 1000}^`,
    );
    expect(t).toContain('• *crawler visits down* in <#C1>: :warning: could not be posted\n');
    expect(t).toContain('• *Lost &lt;!channel&gt; &amp; "more"* in <#C3>: posted');
    expect(liveMarkup(view, { allowedIds: ['C1', 'C2', 'C3', 'U7', 'U8'] })).toEqual([]);
  });

  it('says how to subscribe a brand no channel watches, and how to read the quota when it cannot', () => {
    const view = brandsHomeView(
      [{ brand: brandOf(1, { name: 'Acme "Labs"' }), aiPages: { status: 'not_loaded' } }],
      NOW,
      {
        quota: null,
      },
    );
    const t = texts(view.blocks);
    expect(t).toContain('_Not subscribed in any channel._ `/visibility subscribe "Acme Labs"` in a channel');
    expect(t).toContain('*API usage today:* unavailable right now');
    expect(quotaText({ plan: 'enterprise', usedToday: 12_345, dailyLimit: null, dailyResetAt: NOW })).toBe(
      '*API usage today:* 12,345 requests (no daily limit on this plan).',
    );
  });

  it('puts the brands channels watch first, then summarises past what fits', () => {
    const glances: BrandGlance[] = Array.from({ length: 60 }, (_, i) => ({
      brand: brandOf(i),
      aiPages: { status: 'not_loaded' as const },
    }));
    glances[59] = { ...glances[59]!, activity: { subscriptions: [subscription('C9', 'b59')], alerts: [] } };
    const view = brandsHomeView(glances, NOW, { quota: null });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(validateBlocks(view.blocks, 'home')).toBeUndefined();
    const homeIds = (view.blocks as Array<{ block_id?: string }>)
      .map((b) => b.block_id)
      .filter((id) => id?.startsWith('vis:home:'));
    expect(homeIds).toHaveLength(HOME_MAX_DETAILED);
    expect(homeIds[0]).toBe('vis:home:b59');
    const t = texts(view.blocks);
    expect(t).toContain(`*…and ${60 - HOME_MAX_DETAILED} more* — \`/visibility brands\` lists them all:`);
    expect(t).toContain('• Brand 058');
  });

  it('stays within Slack limits with hostile data, any number of brands, channels and alerts', () => {
    const name = fc.oneof(
      fc.string({ minLength: 1, maxLength: 300 }),
      hostileText.filter((s) => s.trim() !== ''),
    );
    const channelId = fc.oneof(fc.constantFrom('C1', 'C2', 'G3'), hostileText);
    const userId = fc.oneof(fc.constantFrom('U7', 'W8'), hostileText);
    const alert: fc.Arbitrary<AlertGlance> = fc.record({
      channelId,
      createdAtMs: fc.integer({ min: 0, max: 4e12 }),
      sentAtMs: fc.option(fc.integer({ min: 0, max: 4e12 })),
      status: fc.constantFrom(...outboxStatuses),
      holdUntilMs: fc.option(fc.integer({ min: 0, max: 4e12 })),
      holdReason: fc.option(fc.constantFrom('mute' as const, 'snooze' as const, 'quiet_hours' as const)),
      alertCount: fc.integer({ min: 0, max: 500 }),
      kinds: fc.array(fc.oneof(fc.constantFrom('citation_lost', 'ai_pages_threshold'), hostileText), {
        maxLength: 7,
      }),
      headline: fc.option(fc.oneof(name, hostileText)),
      acknowledgedBy: fc.array(userId, { maxLength: 30 }),
      snoozedUntilMs: fc.option(fc.integer({ min: 0, max: 4e12 })),
      snoozedBy: fc.option(userId),
    });
    const sub = fc.record({
      channelId,
      alerts: fc.boolean(),
      digest: fc.boolean(),
      timezone: fc.option(name),
      mutedUntilMs: fc.option(fc.integer({ min: 0, max: 4e12 })),
      pausedReason: fc.option(name),
    });
    const glance = fc.record({
      brand: fc
        .record({ i: fc.nat(), name, active: fc.boolean() })
        .map(({ i, name, active }) => brandOf(i, { name, active })),
      activity: fc.record({
        subscriptions: fc.array(sub, { maxLength: 40 }).map((xs) =>
          xs.map((s) =>
            subscription(s.channelId, 'b', {
              ...s,
              settings: { ...DEFAULT_ALERT_SETTINGS, timezone: s.timezone },
            }),
          ),
        ),
        alerts: fc.array(alert, { maxLength: 3 }),
      }),
    });
    fc.assert(
      fc.property(
        // fast-check keeps arrays short by default: ask for a long list outright as well.
        fc.oneof(
          fc.array(glance, { maxLength: 4 }),
          fc.array(glance, { minLength: HOME_MAX_DETAILED + 1, maxLength: 70 }),
        ),
        fc.boolean(),
        (gs, withQuota) => {
          const view = brandsHomeView(
            gs.map((g, i) => ({
              ...g,
              brand: { ...g.brand, id: `b${i}` },
              aiPages: { status: 'unavailable' as const },
            })),
            NOW,
            withQuota ? { quota: { plan: 'scale', usedToday: 3, dailyLimit: 0, dailyResetAt: NOW } } : {},
          );
          expect(view.blocks.length).toBeLessThanOrEqual(100);
          expect(validateBlocks(view.blocks, 'home')).toBeUndefined();
          expect(
            liveMarkup(view, { allowedUrls: notPhish, allowedIds: ['C1', 'C2', 'G3', 'U7', 'W8'] }),
          ).toEqual([]);
          if (gs.length > HOME_MAX_DETAILED)
            expect(texts(view.blocks)).toContain(`*…and ${gs.length - HOME_MAX_DETAILED} more*`);
        },
      ),
      { numRuns: 40 },
    );
  });
});
