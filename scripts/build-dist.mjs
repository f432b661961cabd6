#!/usr/bin/env node
/**
 * `npm run build`: the CLI bundled into dist/ (`node scripts/build-dist.mjs [outdir]`).
 *
 * Why a bundle: Node resolves, reads and compiles every module separately, and the CLI
 * would otherwise load about a thousand of them (`serve`) or three hundred (`run-job`),
 * most of the start-up time. esbuild joins our code and its dependencies into a few files,
 * split at the CLI's dynamic imports so each verb still loads only what it uses
 * (bench/startup.ts measures it). The type check is `npm run typecheck` (part of npm test).
 *
 * `run-job` is bundled again on its own, into dist/run-job/ (cli/run-job-verb.ts, which
 * run-cli.ts imports): a short run from cron then reads one file, not the two dozen chunks
 * the verbs share, and only the parts of zod it uses (the simulator, in the shared build,
 * keeps all of zod there). Its chart worker is built beside it, as one file.
 *
 * Left out of the bundle and loaded from node_modules at run time:
 * - native addons (better-sqlite3, resvg; pg-native, which pg asks for only if present);
 * - what the code loads on first use with a synchronous require (undici: api/lazy-undici.ts,
 *   @slack/web-api: app-deps.ts, prom-client: metrics.ts), so the process holds one copy,
 *   the one Bolt and its Socket Mode client use too.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const EXTERNAL = [
  'better-sqlite3',
  '@resvg/resvg-js',
  'pg-native',
  'undici',
  '@slack/web-api',
  'prom-client',
];

/** Where run-cli.ts finds `run-job` in the built CLI: its own bundle (distBuilds below). */
const RUN_JOB_DIR = 'run-job';
const RUN_JOB_VERB = `./${RUN_JOB_DIR}/run-job-verb.js`;

/** run-cli.ts's import of cli/run-job-verb.ts is left to the run-job bundle. */
const runJobFromItsBundle = {
  name: 'run-job-from-its-bundle',
  setup(b) {
    b.onResolve({ filter: /^\.\/run-job-verb\.js$/ }, (args) =>
      /[\\/]src[\\/]cli[\\/]run-cli\.ts$/.test(args.importer)
        ? { path: RUN_JOB_VERB, external: true }
        : undefined,
    );
  },
};

function commonOptions(outdir) {
  return {
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    external: EXTERNAL,
    // CommonJS dependencies inside an ES module bundle still call require() for Node's
    // built-ins and the external packages above.
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
    logLevel: 'warning',
  };
}

/** The build's options, also used by the test that runs the built entry on old Nodes. */
export function distBuildOptions(outdir) {
  return {
    ...commonOptions(outdir),
    // chart-worker.js sits next to the chunks: chart-renderer.ts finds it beside itself.
    entryPoints: { main: 'src/main.ts', 'chart-worker': 'src/charts/chart-worker.ts' },
    plugins: [runJobFromItsBundle],
  };
}

/** Every build `npm run build` runs: the CLI, then `run-job`'s bundle and its chart worker. */
export function distBuilds(outdir) {
  const runJobDir = join(outdir, RUN_JOB_DIR);
  return [
    distBuildOptions(outdir),
    { ...commonOptions(runJobDir), entryPoints: { 'run-job-verb': 'src/cli/run-job-verb.ts' } },
    // One file, so the worker shares no chunk with the bundle beside it.
    {
      ...commonOptions(runJobDir),
      entryPoints: { 'chart-worker': 'src/charts/chart-worker.ts' },
      splitting: false,
    },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const outdir = resolve(process.argv[2] ?? 'dist');
  rmSync(outdir, { recursive: true, force: true });
  for (const options of distBuilds(outdir)) await build(options);
}
