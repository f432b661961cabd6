/**
 * "Alerts come when …" in a subscription's own settings: a `subscribe` that sets
 * `events=lost ai-pages=90,100` must not be told about competitors or 80 %.
 */
import type { AlertSettings } from '../../../alerts/alert-settings.js';
import { counted, nameList } from '../../../figures/plural.js';

/** "a", "a or b", "a, b or c". */
const orList = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;

export function whenAlertsCome(s: AlertSettings): string {
  const events = [
    s.events.includes('lost') ? 'a cited page is lost' : null,
    s.events.includes('competitor') ? 'a competitor appears on a cited page' : null,
    s.events.includes('sentiment')
      ? `a cited page's sentiment falls ${counted(s.sentimentDrop, 'point')} or more`
      : null,
  ].filter((e): e is string => e !== null);
  const levels = s.aiPagesThresholds;
  const when = [
    events.length > 0 ? orList(events) : null,
    `AI crawler visits drop ${s.crawlerDropPct} % or more (and recover)`,
    levels.length > 0 ? `AI Pages usage passes ${nameList(levels.map(String))} %` : null,
  ].filter((w): w is string => w !== null);
  const quiet = s.quietHours
    ? ` Quiet hours (${s.quietHours.start}–${s.quietHours.end}) hold them until they end.`
    : '';
  return `Alerts come ${nameList(when.map((w) => `when ${w}`))}.${quiet}`;
}
