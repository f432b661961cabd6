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
 * Left out of the bundle and loaded from node_modules at run time:
 * - native addons (better-sqlite3, resvg; pg-native, which pg asks for only if present);
 * - what the code loads on first use with a synchronous require (undici: api/lazy-undici.ts,
 *   @slack/web-api: app-deps.ts, prom-client: metrics.ts), so the process holds one copy,
 *   the one Bolt and its Socket Mode client use too.
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
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

/** The build's options, also used by the test that runs the built entry on old Nodes. */
export function distBuildOptions(outdir) {
  return {
    // chart-worker.js sits next to the chunks: chart-renderer.ts finds it beside itself.
    entryPoints: { main: 'src/main.ts', 'chart-worker': 'src/charts/chart-worker.ts' },
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

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const outdir = resolve(process.argv[2] ?? 'dist');
  rmSync(outdir, { recursive: true, force: true });
  await build(distBuildOptions(outdir));
}
