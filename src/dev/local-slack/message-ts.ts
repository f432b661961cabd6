/**
 * Slack message timestamps (`1700000000.000100`): seconds and microseconds, unique per
 * workspace and increasing. Compared as integer microseconds because a double cannot hold
 * all 16 digits exactly.
 */
export function tsToMicros(ts: string): bigint {
  const [sec = '0', frac = ''] = ts.split('.');
  return BigInt(sec || '0') * 1_000_000n + BigInt((frac + '000000').slice(0, 6));
}

function microsToTs(micros: bigint): string {
  const sec = micros / 1_000_000n;
  const frac = micros % 1_000_000n;
  return `${sec}.${frac.toString().padStart(6, '0')}`;
}

/** Issues strictly increasing ts values from a millisecond clock. */
export class MessageTsIssuer {
  #last = 0n;

  next(nowMs: number): string {
    const candidate = BigInt(Math.floor(nowMs)) * 1000n;
    this.#last = candidate > this.#last ? candidate : this.#last + 1n;
    return microsToTs(this.#last);
  }
}
