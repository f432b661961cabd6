/** Random counts for the alert benches' simulated brands (seeded by the simulator's Random). */
import type { Random } from '../../src/dev/simulator/random.js';

/** A standard normal draw (Box–Muller). */
export function gauss(r: Random): number {
  return Math.sqrt(-2 * Math.log(1 - r.next())) * Math.cos(2 * Math.PI * r.next());
}

/** A Poisson draw: counting noise around `mean` (a normal approximation above 50). */
export function poisson(r: Random, mean: number): number {
  if (mean > 50) return Math.max(0, Math.round(mean + Math.sqrt(mean) * gauss(r)));
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = r.next(); p > limit; p *= r.next()) k++;
  return k;
}
