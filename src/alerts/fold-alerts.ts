/**
 * One cause, one alert: when a brand-wide cause is seen in the same run as the alerts it
 * explains, those alerts are folded under it and go out as one message (the cause, then
 * the alerts it explains), instead of arriving as separate alerts. Like Alertmanager's
 * inhibition, but nothing is hidden: folded alerts are listed under their cause, their keys
 * stay part of the message's key, and an alert no cause explains is left as it was.
 *
 * Two causes are known:
 * - a model that stopped citing the brand explains the lost citations of pages that model
 *   cited (the model's pages as the last complete citation list showed them);
 * - an access finding blocking a crawler explains that crawler's fall.
 * Pure.
 */
import type { Alert } from './types.js';

/** Whether `cause` explains `symptom`. */
type Explains = (cause: Alert, symptom: Alert) => boolean;

/** The kinds that are brand-wide causes. */
const CAUSE_KINDS = new Set<Alert['kind']>(['model_stopped', 'crawler_blocked']);

/**
 * The run's alerts with every explained alert moved under the first cause that explains
 * it. Order is kept otherwise; an alert that is itself a cause is never folded.
 */
export function foldAlerts(alerts: readonly Alert[], explains: Explains): Alert[] {
  const causes = alerts.filter((a) => CAUSE_KINDS.has(a.kind));
  if (causes.length === 0) return [...alerts];
  const under = new Map<Alert, Alert[]>(causes.map((c) => [c, [...(c.folded ?? [])]]));
  const out: Alert[] = [];
  for (const a of alerts) {
    if (CAUSE_KINDS.has(a.kind)) {
      out.push(a);
      continue;
    }
    const cause = causes.find((c) => explains(c, a));
    if (cause) under.get(cause)!.push(a);
    else out.push(a);
  }
  return out.map((a) => {
    const folded = under.get(a);
    return folded && folded.length > 0 ? { ...a, folded } : a;
  });
}

/** The URL a citation alert is about. */
const urlOf = (a: Alert): string | undefined => a.open.params?.url;

/** A model that stopped citing explains a lost page that model cited. */
export function explainedByModel(modelsOfUrl: (url: string) => readonly string[]): Explains {
  return (cause, symptom) => {
    if (cause.kind !== 'model_stopped' || symptom.kind !== 'citation_lost' || !cause.model) return false;
    const url = urlOf(symptom);
    return url !== undefined && modelsOfUrl(url).includes(cause.model);
  };
}

/** A blocked crawler explains a crawler fall in which that crawler is among those that fell most. */
export const explainedByBlockedCrawler: Explains = (cause, symptom) =>
  cause.kind === 'crawler_blocked' &&
  symptom.kind === 'crawler_drop' &&
  (symptom.crawlers ?? []).some((c) => (cause.crawlers ?? []).includes(c));

/** Every key an alert stands for: its own and those folded under it (the message key names them all). */
export function keysOf(a: Alert): string[] {
  return [a.key, ...(a.folded ?? []).flatMap(keysOf)];
}
