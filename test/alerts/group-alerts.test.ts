import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { detectAiPages } from '../../src/alerts/detect-ai-pages.js';
import { detectCitations } from '../../src/alerts/detect-citations.js';
import { alertGroupKey, groupAlerts } from '../../src/alerts/group-alerts.js';
import type { Alert } from '../../src/alerts/types.js';
import { BRAND, ev, feed, T0 } from './fixtures.js';

const S = DEFAULT_ALERT_SETTINGS;
const OTHER = { id: 'brand-2', name: 'Other Co' };

describe('groupAlerts', () => {
  const citationAlerts = detectCitations(
    new Map(),
    feed([
      ev('competitor_appeared', 'https://x.example/1', '2025-03-01T00:00:00Z', { competitor: 'Rival' }),
      ev('lost', 'https://x.example/2', '2025-03-01T00:00:00Z'),
    ]),
    S,
    T0,
  ).alerts;
  const other: Alert = { ...citationAlerts[1]!, brandId: OTHER.id, brandName: OTHER.name, key: 'k-other' };
  const note = detectAiPages(null, { unavailable: 'no_entitlement' }, S, BRAND, T0).notes[0]!;

  it('one group per brand, alerts ordered by kind, notes attached', () => {
    const groups = groupAlerts([...citationAlerts, other], [note]);
    expect(groups.map((g) => g.brandId)).toEqual([BRAND.id, OTHER.id]);
    expect(groups[0]!.alerts.map((a) => a.kind)).toEqual(['citation_lost', 'citation_competitor']);
    expect(groups[0]!.notes).toEqual([note]);
    expect(groups[1]!.alerts).toEqual([other]);
  });

  it('the group key depends on the set of alerts, not their order', () => {
    const a = groupAlerts(citationAlerts)[0]!.key;
    const b = groupAlerts([...citationAlerts].reverse())[0]!.key;
    expect(a).toBe(b);
    expect(a).toMatch(new RegExp(`^alerts:${BRAND.id}:[0-9a-f]{20}$`));
    expect(alertGroupKey(BRAND.id, ['x'])).not.toBe(a);
  });
});
