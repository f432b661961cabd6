/**
 * Alerts go out as one message per brand per channel per run (docs/alert-semantics.md), so a run's
 * alerts are grouped by brand here. The group key names exactly the alerts it holds: the
 * acknowledge button carries it, and the delivery layer prefixes it with the channel for
 * the outbox dedupe key.
 */
import { keysOf } from './fold-alerts.js';
import { type Alert, type AlertNote, alertKinds } from './types.js';

export interface AlertGroup {
  brandId: string;
  brandName: string;
  key: string;
  /** Ordered by kind (causes first, then most urgent), then as detected; folded alerts ride under their cause. */
  alerts: Alert[];
  notes: AlertNote[];
}

export function alertGroupKey(brandId: string, keys: readonly string[]): string {
  // One-shot hash(): the same digest as createHash().update().digest() without building a
  // Hash object per group. node:crypto on first use: a run with no alerts never loads it.
  const { hash } = process.getBuiltinModule('node:crypto');
  return `alerts:${brandId}:${hash('sha1', [...keys].sort().join('\n')).slice(0, 20)}`;
}

export function groupAlerts(alerts: readonly Alert[], notes: readonly AlertNote[] = []): AlertGroup[] {
  const groups = new Map<string, { brandName: string; alerts: Alert[]; notes: AlertNote[] }>();
  const groupOf = (brandId: string, brandName: string) => {
    let g = groups.get(brandId);
    if (!g) {
      g = { brandName, alerts: [], notes: [] };
      groups.set(brandId, g);
    }
    return g;
  };
  for (const a of alerts) groupOf(a.brandId, a.brandName).alerts.push(a);
  for (const n of notes) groupOf(n.brandId, n.brandName).notes.push(n);
  const rank = (a: Alert) => alertKinds.indexOf(a.kind);
  return [...groups].map(([brandId, g]) => {
    const sorted = g.alerts.map((a, i) => ({ a, i })).sort((x, y) => rank(x.a) - rank(y.a) || x.i - y.i);
    return {
      brandId,
      brandName: g.brandName,
      key: alertGroupKey(brandId, [...g.alerts.flatMap(keysOf), ...g.notes.map((n) => n.key)]),
      alerts: sorted.map((x) => x.a),
      notes: g.notes,
    };
  });
}
