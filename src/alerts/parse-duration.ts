/**
 * Durations for `/visibility mute <brand> <duration>`: `30m`, `2h`, `1d`, `1w`, `1h30m`.
 * Bounded to 1 minute – 30 days: shorter is a typo, longer should be an unsubscribe.
 */
export const MIN_DURATION_MS = 60_000;
export const MAX_DURATION_MS = 30 * 24 * 3_600_000;

const UNIT_MS = { w: 7 * 24 * 3_600_000, d: 24 * 3_600_000, h: 3_600_000, m: 60_000 } as const;
type Unit = keyof typeof UNIT_MS;
const UNIT_ORDER: readonly Unit[] = ['w', 'd', 'h', 'm'];

export type DurationResult = { ok: true; ms: number } | { ok: false; error: string };

const EXAMPLES = 'e.g. 30m, 2h, 1d, 1w or 1h30m';

export function parseDuration(input: string): DurationResult {
  // "1h 30m" reads the same as "1h30m".
  const text = input.replace(/\s+/g, '').toLowerCase();
  if (text === '') return { ok: false, error: `Give a duration, ${EXAMPLES}.` };
  const part = /(\d+)([a-z]*)/y;
  let ms = 0;
  let lastUnit = -1;
  let pos = 0;
  while (pos < text.length) {
    part.lastIndex = pos;
    const m = part.exec(text);
    if (!m)
      return {
        ok: false,
        error: `"${input.trim()}" is not a duration; use a number and a unit, ${EXAMPLES}.`,
      };
    const unitText = m[2]!;
    if (unitText === '')
      return {
        ok: false,
        error: `"${m[1]}" needs a unit: m (minutes), h (hours), d (days) or w (weeks), ${EXAMPLES}.`,
      };
    if (!(unitText in UNIT_MS))
      return {
        ok: false,
        error: `"${unitText}" is not a unit; use m (minutes), h (hours), d (days) or w (weeks).`,
      };
    const unit = unitText as Unit;
    const order = UNIT_ORDER.indexOf(unit);
    // Largest unit first, each once: "1h30m" is clear, "30m1h" or "1h1h" is probably a typo.
    if (order <= lastUnit)
      return { ok: false, error: `"${input.trim()}": give each unit once, largest first, ${EXAMPLES}.` };
    lastUnit = order;
    ms += Number(m[1]) * UNIT_MS[unit];
    pos = part.lastIndex;
  }
  if (ms < MIN_DURATION_MS) return { ok: false, error: 'The shortest duration is 1 minute (1m).' };
  if (ms > MAX_DURATION_MS)
    return {
      ok: false,
      error: 'The longest duration is 30 days (30d); to stop alerts for good, unsubscribe.',
    };
  return { ok: true, ms };
}

/** "1 h 30 min", "2 d", "1 w 3 d": for confirmations ("Muted for 1 h 30 min"). */
export function formatDuration(ms: number): string {
  let rest = Math.max(0, Math.round(ms / 60_000)) * 60_000;
  const parts: string[] = [];
  const labels: Record<Unit, string> = { w: 'w', d: 'd', h: 'h', m: 'min' };
  for (const unit of UNIT_ORDER) {
    const n = Math.floor(rest / UNIT_MS[unit]);
    if (n > 0) parts.push(`${n} ${labels[unit]}`);
    rest -= n * UNIT_MS[unit];
  }
  return parts.length > 0 ? parts.join(' ') : '0 min';
}
