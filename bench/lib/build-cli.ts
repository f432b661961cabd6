/**
 * Builds the CLI the way `npm run build` does (scripts/build-dist.mjs: the bundle in
 * dist/), so a benchmark measures what operators run, from the current sources.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(REPO, 'dist/main.js');

/** The V8 setting the Docker image and `npm start` run the bot with: measured as shipped. */
export const IMAGE_V8_FLAGS = ['--max-semi-space-size=8'];

export function buildCli(): void {
  execFileSync(process.execPath, [join(REPO, 'scripts/build-dist.mjs')], { cwd: REPO, stdio: 'inherit' });
}
