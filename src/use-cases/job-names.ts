/** The scheduled jobs (docs/runtime-contract.md: `run-job <citations|crawler|ai-pages|digest|weekly|all>`). */
export const JOB_NAMES = ['citations', 'crawler', 'ai-pages', 'digest', 'weekly'] as const;
export type JobName = (typeof JOB_NAMES)[number];
/** The jobs that poll the API on an interval (the digest and the weekly summary are due per subscription). */
export type PollJob = Exclude<JobName, 'digest' | 'weekly'>;
export const POLL_JOBS: readonly PollJob[] = ['citations', 'crawler', 'ai-pages'];
/** What `run-job` and `runJobs` accept: one job, or every job in order. */
export type JobTarget = JobName | 'all';

export function isJobTarget(value: string): value is JobTarget {
  return value === 'all' || (JOB_NAMES as readonly string[]).includes(value);
}

export function jobsOf(target: JobTarget): readonly JobName[] {
  return target === 'all' ? JOB_NAMES : [target];
}
