/**
 * A channel's subscriptions as a table model (views/table-model.ts draws it as Slack's own
 * table): a row per brand with what it brings (alerts, the daily digest and its time),
 * its quiet hours, whether anything holds it back, how many alert messages wait, and the
 * day it was subscribed. Counts and days keep their number, so Slack sorts them by value.
 * Plain text: the table renderer escapes.
 */
import { dayText, timeText } from '../../../figures/day-text.js';
import { countText } from '../../../figures/number-text.js';
import { ALERT_KIND_WORDS } from '../../../messages/alert-message.js';
import { ownLookup } from '../../../messages/own-lookup.js';
import type { Snooze } from '../../../store/snoozes-repo.js';
import type { Subscription } from '../../../store/subscriptions-repo.js';
import type { TableModel, TableValue } from '../../views/table-model.js';

/** A subscription with what holds it back now (the list's SubscriptionState). */
interface SubscriptionRow {
  sub: Subscription;
  snoozes: readonly Pick<Snooze, 'kind'>[];
  held: number;
}

const kindAlerts = (kind: string): string =>
  ownLookup(ALERT_KIND_WORDS, kind)?.alerts ?? kind.replace(/_/g, ' ');

/** "Paused: why", "Muted until Nov 28, 2026 at 14:00 UTC", "Snoozed: …"; "Active" when nothing holds it. */
function statusText(s: SubscriptionRow, nowMs: number): string {
  const { sub } = s;
  const parts: string[] = [];
  if (sub.pausedReason) parts.push(`Paused: ${sub.pausedReason}`);
  if (sub.mutedUntilMs !== null && sub.mutedUntilMs > nowMs)
    parts.push(`Muted until ${timeText(sub.mutedUntilMs)}`);
  if (s.snoozes.length > 0) parts.push(`Snoozed: ${s.snoozes.map((z) => kindAlerts(z.kind)).join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : 'Active';
}

function digestText(s: SubscriptionRow, defaultTimezone: string): string {
  const { settings } = s.sub;
  return s.sub.digest ? `${settings.digestTime} ${settings.timezone ?? defaultTimezone}` : 'Off';
}

const dayValue = (ms: number): TableValue =>
  Number.isFinite(ms)
    ? { number: ms, text: dayText(new Date(ms).toISOString()) }
    : { number: Number.NaN, text: '—' };

export function subscriptionsTable(
  states: readonly SubscriptionRow[],
  defaultTimezone: string,
  nowMs: number,
): TableModel {
  return {
    columns: [
      { label: 'Brand' },
      { label: 'Alerts' },
      { label: 'Daily digest' },
      { label: 'Quiet hours' },
      { label: 'Status' },
      { label: 'Alerts held', align: 'right' },
      { label: 'Subscribed', align: 'right' },
    ],
    rows: states.map((s) => {
      const quiet = s.sub.settings.quietHours;
      return [
        s.sub.brandName,
        s.sub.alerts ? 'On' : 'Off',
        digestText(s, defaultTimezone),
        quiet ? `${quiet.start}–${quiet.end}` : 'None',
        statusText(s, nowMs),
        { number: s.held, text: countText(s.held) },
        dayValue(s.sub.createdAtMs),
      ];
    }),
  };
}
