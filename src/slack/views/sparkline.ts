/**
 * A one-line trend of a series (▁▂▃▄▅▆▇█), scaled between its own min and max so the shape
 * shows even when the values sit in a narrow band. Long series are averaged into at most
 * `maxWidth` buckets: a 365-day history still fits a Slack line.
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
  const min = Math.min(...known);
  const max = Math.max(...known);
  const line = points
    .map((v) => {
      if (v === null) return GAP;
      // A flat series sits on the baseline when it is zero, mid-height otherwise.
      if (max === min) return max === 0 ? BARS[0] : BARS[3];
      return BARS[Math.round(((v - min) / (max - min)) * (BARS.length - 1))];
    })
    .join('');
  return escapeMrkdwn(line);
}
