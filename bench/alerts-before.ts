/**
 * The alerts bench (a) as measured before citation state was written per changed URL and
 * brands were committed in batches (commit f66b3d8, Node 26, a 2-CPU machine shared with
 * other work, `npm run bench -- alerts --quick`). Printed next to each run's figures so a
 * change shows its effect; figures from another machine compare only roughly.
 */
export interface AlertsFigures {
  cpuMs: number;
  peakRssMb: number;
  /** One-minute load average when the run started. */
  load: number;
}

export const ALERTS_BEFORE: Readonly<Record<'sqlite' | 'postgres', AlertsFigures>> = {
  sqlite: { cpuMs: 9437, peakRssMb: 210, load: 1.3 },
  postgres: { cpuMs: 10_751, peakRssMb: 224, load: 3.8 },
};
