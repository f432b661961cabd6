/**
 * What the bot itself knows about each brand, for the App Home: the channels subscribed to
 * it, and its latest alert messages with what became of them (posted, held by a mute or
 * quiet hours, acknowledged by whom, snoozed until when). Local reads only (the database):
 * opening the tab costs no API call for any of this.
 */

import type { OutboxStatus } from '../../../store/outbox-repo.js';
import type { Store } from '../../../store/store.js';
import type { Subscription } from '../../../store/subscriptions-repo.js';

/** Latest alert messages shown per brand. */
const HOME_ALERTS_PER_BRAND = 3;

export interface AlertGlance {
  channelId: string;
  createdAtMs: number;
  sentAtMs: number | null;
  status: OutboxStatus;
  holdUntilMs: number | null;
  /** Why a held message waits, as far as the store tells now; null when not held or unknown. */
  holdReason: HoldReason | null;
  alertCount: number;
  kinds: string[];
  /** The message's header as plain text (entities decoded), e.g. "Acme: AI Pages usage passed 80 %". */
  headline: string | null;
  /** Who pressed Acknowledge on the posted message, each once, latest last. */
  acknowledgedBy: string[];
  /** The latest end of a snooze running now on one of the message's kinds in its channel. */
  snoozedUntilMs: number | null;
  snoozedBy: string | null;
}

export type HoldReason = 'mute' | 'snooze' | 'quiet_hours';

/** An alert message nobody has resolved yet, and who owns it. */
export interface OpenAlertGlance {
  channelId: string;
  postedAtMs: number;
  /** The message's header as plain text (entities decoded). */
  headline: string;
  permalink: string | null;
  assigneeId: string | null;
}

export interface BrandActivity {
  subscriptions: Subscription[];
  alerts: AlertGlance[];
  /** Its open alerts, newest first (absent: none known). */
  openAlerts?: OpenAlertGlance[];
}

export const NO_ACTIVITY: BrandActivity = Object.freeze({ subscriptions: [], alerts: [] });

export async function loadBrandActivity(
  store: Store,
  brandIds: readonly string[],
  nowMs: number,
  perBrand = HOME_ALERTS_PER_BRAND,
): Promise<Map<string, BrandActivity>> {
  const out = new Map<string, BrandActivity>();
  const wanted = new Set(brandIds);
  const entry = (brandId: string) => {
    let a = out.get(brandId);
    if (!a) {
      a = { subscriptions: [], alerts: [] };
      out.set(brandId, a);
    }
    return a;
  };
  for (const s of await store.subscriptions.listAll()) {
    if (wanted.has(s.brandId)) entry(s.brandId).subscriptions.push(s);
  }

  const history = store.alertHistory;
  const rows = await history.recentAlerts(brandIds, perBrand);
  const oldest = rows.reduce((min, r) => Math.min(min, r.createdAtMs), Number.POSITIVE_INFINITY);
  const ackers = new Map<string, string[]>();
  if (rows.length > 0) {
    for (const a of await history.acknowledgementsSince(oldest)) {
      const key = `${a.channelId}\n${a.messageTs}`;
      const list = (ackers.get(key) ?? []).filter((u) => u !== a.userId);
      ackers.set(key, [...list, a.userId]);
    }
  }
  const snoozes = await store.snoozes.listActive(nowMs);
  for (const o of (await store.alertStates.listOpen(brandIds)).reverse()) {
    const a = entry(o.brandId);
    a.openAlerts = [
      ...(a.openAlerts ?? []),
      {
        channelId: o.channelId,
        postedAtMs: o.postedAtMs,
        headline: decodeEntities(o.headline),
        permalink: o.permalink,
        assigneeId: o.assigneeId,
      },
    ];
  }

  const subs = new Map<string, Subscription>();
  for (const a of out.values()) for (const s of a.subscriptions) subs.set(`${s.channelId}\n${s.brandId}`, s);

  for (const r of rows) {
    const running = snoozes.filter(
      (z) => z.channelId === r.channelId && z.brandId === r.brandId && r.kinds.includes(z.kind),
    );
    const latest = running.reduce<(typeof running)[number] | null>(
      (best, z) => (best === null || z.untilMs > best.untilMs ? z : best),
      null,
    );
    entry(r.brandId).alerts.push({
      channelId: r.channelId,
      createdAtMs: r.createdAtMs,
      sentAtMs: r.sentAtMs,
      status: r.status,
      holdUntilMs: r.holdUntilMs,
      holdReason:
        r.status === 'held'
          ? holdReason(subs.get(`${r.channelId}\n${r.brandId}`), latest !== null, nowMs)
          : null,
      alertCount: r.alertCount,
      kinds: r.kinds,
      headline: r.headline === null ? null : decodeEntities(r.headline),
      acknowledgedBy: r.slackTs ? (ackers.get(`${r.channelId}\n${r.slackTs}`) ?? []) : [],
      snoozedUntilMs: latest?.untilMs ?? null,
      snoozedBy: latest?.createdBy ?? null,
    });
  }
  return out;
}

/** The hold the alerting side applies (use-cases/alert-hold.ts), read back: a mute, then a snooze, then quiet hours. */
function holdReason(sub: Subscription | undefined, snoozed: boolean, nowMs: number): HoldReason | null {
  if (sub?.mutedUntilMs != null && sub.mutedUntilMs > nowMs) return 'mute';
  if (snoozed) return 'snooze';
  if (sub?.settings.quietHours) return 'quiet_hours';
  return null;
}

/** The header was written escaped for Slack; the view escapes again, so read it back as text. */
function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
