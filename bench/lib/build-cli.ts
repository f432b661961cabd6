/**
 * Builds the CLI the way `npm run build` does (scripts/build-dist.mjs: the bundle in
 * dist/), so a benchmark measures what operators run, from the current sources.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(REPO, 'dist/main.js');

/** Node flags and environment a process is started with, beyond the app's own settings. */
export interface NodeRuntime {
  flags: string[];
  env: Record<string, string>;
}

/**
 * How the Docker image runs the bot: measured as shipped. The V8 flag is also `npm
 * start`'s; the image's ENV holds glibc's malloc to two arenas (Dockerfile).
 */
export const IMAGE_RUNTIME: NodeRuntime = {
  flags: ['--max-semi-space-size=8'],
  env: { MALLOC_ARENA_MAX: '2' },
};

/** Node as it starts with no flags and no such environment. */
export const NODE_DEFAULTS: NodeRuntime = { flags: [], env: {} };

/** `base` (the environment a process would get) with `runtime`'s settings laid over it. */
export const envOf = (runtime: NodeRuntime, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv => ({
  ...base,
  ...runtime.env,
});

export function buildCli(): void {
  execFileSync(process.execPath, [join(REPO, 'scripts/build-dist.mjs')], { cwd: REPO, stdio: 'inherit' });
}
