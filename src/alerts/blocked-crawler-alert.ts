/**
 * A crawler fall's cause from the access data: a finding (robots.txt rule, firewall block)
 * that blocks one of the crawlers that fell most. Only looked for when a fall alert fires,
 * and keyed on that alert, so it is sent exactly when the fall is (once per fall episode);
 * the fall is then folded under it (fold-alerts.ts). Pure.
 */
import { nameList } from '../figures/plural.js';
import type { Alert } from './types.js';

/** One access finding, as much of it as the alert uses. */
export interface AccessFinding {
  title: string;
  /** Crawler names the finding blocks (the access data's `affected_bots`). */
  affectedBots: readonly string[];
  recommendation: string | null;
}

/**
 * The cause alert for `drop` (a crawler_drop alert whose `crawlers` are those that fell
 * most), or null when no finding blocks any of them.
 */
export function blockedCrawlerAlert(
  drop: Alert,
  findings: readonly AccessFinding[],
  nowMs: number,
): Alert | null {
  const fell = drop.crawlers ?? [];
  const hits = findings.filter((f) => f.affectedBots.some((b) => fell.includes(b)));
  if (hits.length === 0) return null;
  const blocked = [...new Set(hits.flatMap((f) => f.affectedBots.filter((b) => fell.includes(b))))];
  const todo = [...new Set(hits.flatMap((f) => (f.recommendation ? [f.recommendation] : [])))];
  return {
    kind: 'crawler_blocked',
    brandId: drop.brandId,
    brandName: drop.brandName,
    key: `crawler_blocked:${drop.key}`,
    title: `${nameList(blocked)} blocked on ${drop.brandName}'s site`,
    whatChanged: `The access check found: ${hits.map((f) => f.title).join('; ')}.`,
    before: null,
    after: null,
    whyItMatters: `A blocked crawler cannot read your pages, so the AI answers it feeds cannot cite them; its visits fall first.`,
    whatToDo:
      todo.length > 0
        ? todo.join(' ')
        : 'Open the crawler view’s access tab and lift the block for the crawlers named here.',
    subject: nameList(blocked),
    open: drop.open,
    detectedAtMs: nowMs,
    crawlers: blocked,
  };
}
