/**
 * A one-line trend of a series (▁▂▃▄▅▆▇█) on a scale that includes zero, so the height of a
 * bar is its size: 24 → 23 (−4 %) draws two nearly full bars, not a cliff, as a scale
 * stretched between the series' own min and max did. (A narrow band then looks flat, which
 * it is next to its size; the figures beside the line give the exact change.) Long series
 * are averaged into at most `maxWidth` buckets: a 365-day history still fits a Slack line.
 */
import { escapeMrkdwn, type Mrkdwn } from '../../messages/mrkdwn.js';

const BARS = '▁▂▃▄▅▆▇█';
/** A day without a figure (null, NaN): a dot keeps the time axis honest. */
const GAP = '·';

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function bucketed(values: readonly (number | null | undefined)[], width: number): (number | null)[] {
  if (values.length <= width) return values.map((v) => (isFiniteNumber(v) ? v : null));
  const out: (number | null)[] = [];
  for (let b = 0; b < width; b += 1) {
    const from = Math.floor((b * values.length) / width);
    const to = Math.floor(((b + 1) * values.length) / width);
    const inBucket = values.slice(from, to).filter(isFiniteNumber);
    out.push(inBucket.length === 0 ? null : inBucket.reduce((a, v) => a + v, 0) / inBucket.length);
  }
  return out;
}

export function sparkline(values: readonly (number | null | undefined)[], maxWidth = 60): Mrkdwn {
  const points = bucketed(values, Math.max(1, Math.floor(maxWidth)));
  const known = points.filter((v): v is number => v !== null);
  if (known.length === 0) return escapeMrkdwn(GAP.repeat(points.length));
  // Zero is always on the scale: bars measure from it (negative values hang below it).
  const low = Math.min(0, ...known);
  const high = Math.max(0, ...known);
  const line = points
    .map((v) => {
      if (v === null) return GAP;
      // Only an all-zero series has no span: it sits on the baseline.
      if (high === low) return BARS[0];
      return BARS[Math.round(((v - low) / (high - low)) * (BARS.length - 1))];
    })
    .join('');
  return escapeMrkdwn(line);
}
