/**
 * The alerts bench (a) as measured before citation state was written per changed URL and
 * brands were committed in batches (commit f66b3d8, Node 26, a 2-CPU machine shared with
 * other work, `npm run bench -- alerts --quick`). Printed next to each run's figures so a
 * change shows its effect; figures from another machine compare only roughly. The bench
 * then ran its measured process through tsx, whose compiler and compiled modules (about
 * 45 MB) are in these peaks and not in the bundled runs measured since.
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

/**
 * Commit b3a0a83 (per-URL state writes, twenty brands a transaction) measured the way the
 * bench measures now (bundled, plain node), in runs taken in turn with those of the next
 * commits' (the feed's events validated by zod's compiled object parser, no second
 * detection for why-lines once their calls are spent, the digest's feed trimmed, eight
 * brands a transaction, the change rows' upsert prepared) on the same machine at the same load, so the two compare: the
 * median of three (SQLite) and the lower of two (Postgres). Those next commits measured
 * 8.7 s / 224 MB (SQLite, load 3.6) and 11.7 s / 214 MB (Postgres, load 3.4) in the same turns.
 */
export const ALERTS_BEFORE_SAME_LOAD: Readonly<Record<'sqlite' | 'postgres', AlertsFigures>> = {
  sqlite: { cpuMs: 9577, peakRssMb: 216, load: 3.9 },
  postgres: { cpuMs: 14_376, peakRssMb: 218, load: 3.7 },
};

/**
 * Commit bb69b65, measured the way the bench measures now (`--quick`, bundled, plain node,
 * load 1.5): the citations job in batches of eight brands, the crawler and AI Pages jobs
 * still one brand per transaction, the job lease renewed before every brand, the AI Pages
 * plan read one brand at a time. By job: SQLite citations 5.3 s, crawler 1.5 s, AI Pages
 * 0.8 s; Postgres 8.7 s, 2.7 s, 1.7 s (some 30,000 statements).
 */
export const ALERTS_BEFORE_LEVEL_BATCHES: Readonly<Record<'sqlite' | 'postgres', AlertsFigures>> = {
  sqlite: { cpuMs: 7600, peakRssMb: 224, load: 1.5 },
  postgres: { cpuMs: 13_100, peakRssMb: 208, load: 1.5 },
};
