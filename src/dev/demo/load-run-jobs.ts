/**
 * The alerting work (src/jobs/run-jobs.ts, `runJobs(deps, job)`) may not exist yet. It is
 * looked up at runtime, through a specifier the compiler does not resolve, so the demo
 * builds and runs either way.
 */
import type { AppDeps } from '../../app-deps.js';

export type JobName = 'citations' | 'crawler' | 'ai-pages' | 'digest' | 'all';
export const JOB_NAMES: readonly JobName[] = ['citations', 'crawler', 'ai-pages', 'digest', 'all'];

export type RunJobs = (deps: AppDeps, job: JobName) => Promise<unknown>;

const RUN_JOBS_MODULE = '../../jobs/run-jobs.js';

export type RunJobsLookup = { found: true; runJobs: RunJobs } | { found: false; reason: string | undefined };

/** The module itself is missing (not: it exists but something it imports is). */
function isNotFound(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  const missing = typeof e?.message === 'string' ? (e.message.split(' imported from ')[0] ?? '') : '';
  if (!missing.includes('run-jobs')) return false;
  if (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') return true;
  // Vite-based runners (vitest) say it in words.
  return /cannot find|failed to load|does not exist/i.test(missing);
}

export async function loadRunJobs(specifier: string = RUN_JOBS_MODULE): Promise<RunJobsLookup> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(specifier)) as Record<string, unknown>;
  } catch (err) {
    if (isNotFound(err)) return { found: false, reason: undefined };
    return { found: false, reason: err instanceof Error ? err.message : String(err) };
  }
  const runJobs = mod['runJobs'];
  if (typeof runJobs !== 'function')
    return { found: false, reason: `${specifier} exports no runJobs function` };
  return { found: true, runJobs: runJobs as RunJobs };
}
