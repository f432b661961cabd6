import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { type AiPagesInput, type AiPagesState, detectAiPages } from '../../src/alerts/detect-ai-pages.js';
import { aiPages, BRAND, T0 } from './fixtures.js';

const S = DEFAULT_ALERT_SETTINGS;
const NO_ENTITLEMENT = { unavailable: 'no_entitlement' } as const;

function run(inputs: AiPagesInput[], start: AiPagesState | null = null, settings = S) {
  let state = start;
  const out: { alerts: string[]; notes: string[] }[] = [];
  for (const input of inputs) {
    const r = detectAiPages(state, input, settings, BRAND, T0);
    out.push({ alerts: r.alerts.map((a) => a.key), notes: r.notes.map((n) => n.reason) });
    state = r.next;
  }
  return { out, state: state! };
}

const P1 = '2025-04-01T00:00:00Z';
const P2 = '2025-05-01T00:00:00Z';
const key = (period: string, level: number) =>
  `ai_pages_threshold:${BRAND.id}:${new Date(period).toISOString()}:${level}`;

describe('detectAiPages: thresholds', () => {
  it('85 % first seen alerts only the 80 level; then 92 % the 90 level; a rerun nothing', () => {
    const { out, state } = run([aiPages(85, P1), aiPages(92, P1), aiPages(92, P1)]);
    expect(out.map((o) => o.alerts)).toEqual([[key(P1, 80)], [key(P1, 90)], []]);
    expect(state.firedLevels).toEqual([80, 90]);
  });

  it('jumping straight to 100 % alerts only the highest level crossed, and never the lower ones later', () => {
    const { out } = run([aiPages(40, P1), aiPages(100, P1), aiPages(100, P1)]);
    expect(out.map((o) => o.alerts)).toEqual([[], [key(P1, 100)], []]);
  });

  it('a new billing period re-arms: 50 % nothing, then 81 % a new 80 alert', () => {
    const { out } = run([aiPages(95, P1), aiPages(50, P2), aiPages(81, P2)]);
    expect(out.map((o) => o.alerts)).toEqual([[key(P1, 90)], [], [key(P2, 80)]]);
  });

  it('names the period by the reset instant, whatever its spelling', () => {
    const { out } = run([aiPages(85, '2025-04-01T00:00:00Z'), aiPages(86, '2025-04-01T00:00:00.000+00:00')]);
    expect(out[1]!.alerts).toEqual([]);
  });

  it('says what changed, before → after, why and what to do', () => {
    const first = detectAiPages(null, aiPages(70, P1), S, BRAND, T0).next;
    const a = detectAiPages(first, aiPages(91.5, P1), S, BRAND, T0).alerts[0]!;
    expect(a.kind).toBe('ai_pages_threshold');
    expect(a.title).toBe('AI Pages usage passed 90 %');
    expect([a.before, a.after]).toEqual(['70 % used', '91 % used']);
    expect(a.whatChanged).toContain('91,500 of 100,000');
    expect(a.open.view).toBe('aipages');
    const full = detectAiPages(first, aiPages(100, P1), S, BRAND, T0).alerts[0]!;
    expect(full.title).toBe('AI Pages monthly limit reached');
  });

  it('honours custom levels and ai-pages=off', () => {
    expect(run([aiPages(75, P1)], null, { ...S, aiPagesThresholds: [50, 75] }).out[0]!.alerts).toEqual([
      key(P1, 75),
    ]);
    expect(run([aiPages(100, P1)], null, { ...S, aiPagesThresholds: [] }).out[0]!.alerts).toEqual([]);
  });
});

describe('detectAiPages: enabled', () => {
  it('enabled turning false alerts once, and re-arms when it is true again', () => {
    const { out } = run([
      aiPages(10, P1, true),
      aiPages(10, P1, false),
      aiPages(10, P1, false),
      aiPages(10, P1, true),
      aiPages(10, P1, false),
    ]);
    const disabled = out.map((o) => o.alerts.filter((k) => k.startsWith('ai_pages_disabled')));
    expect(disabled).toEqual([
      [],
      [`ai_pages_disabled:${BRAND.id}:${new Date(P1).toISOString()}:e1`],
      [],
      [],
      [`ai_pages_disabled:${BRAND.id}:${new Date(P1).toISOString()}:e2`],
    ]);
  });

  it('disabled on first sight is not news (it was off before anyone subscribed)', () => {
    expect(run([aiPages(10, P1, false)]).out[0]!.alerts).toEqual([]);
  });
});

describe('detectAiPages: unavailable', () => {
  it('no entitlement is noted once, not alerted daily', () => {
    const { out } = run([NO_ENTITLEMENT, NO_ENTITLEMENT, NO_ENTITLEMENT]);
    expect(out).toEqual([
      { alerts: [], notes: ['no_entitlement'] },
      { alerts: [], notes: [] },
      { alerts: [], notes: [] },
    ]);
  });

  it('config null (not set up) is noted once; a later entitlement loss is a new note', () => {
    const notSetUp = { ...aiPages(0, P1), config: null, usage: null };
    const { out } = run([notSetUp, notSetUp, aiPages(10, P1), NO_ENTITLEMENT, NO_ENTITLEMENT, notSetUp]);
    expect(out.map((o) => o.notes)).toEqual([['not_set_up'], [], [], ['no_entitlement'], [], ['not_set_up']]);
  });

  it('notes carry a stable key and readable text', () => {
    const n = detectAiPages(null, NO_ENTITLEMENT, S, BRAND, T0).notes[0]!;
    expect(n.key).toBe(`ai_pages_unavailable:${BRAND.id}:no_entitlement:e1`);
    expect(n.text).toContain('not part of your plan');
  });

  it('levels fired before an outage stay fired in the same period', () => {
    const { out } = run([aiPages(85, P1), NO_ENTITLEMENT, aiPages(86, P1)]);
    expect(out[2]!.alerts).toEqual([]);
  });
});
