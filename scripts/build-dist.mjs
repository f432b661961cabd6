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
 * main.ts and run-cli.ts import): a short run from cron then reads one file, not the two dozen chunks
 * the verbs share, and only the parts of zod it uses (the simulator, in the shared build,
 * keeps all of zod there). Its chart worker is built beside it, as one file.
 *
 * Left out of the bundle and loaded from node_modules at run time:
 * - native addons (better-sqlite3, resvg; pg-native, which pg asks for only if present);
 *   `run-job`'s bundle takes better-sqlite3's JavaScript, leaving out only its addon;
 * - what the code loads on first use with a synchronous require (undici: api/lazy-undici.ts,
 *   @slack/web-api: app-deps.ts, prom-client: metrics.ts), so the process holds one copy,
 *   the one Bolt and its Socket Mode client use too.
 */
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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

/** The imports of cli/run-job-verb.ts (run-cli.ts's, and main.ts's for `run-job`) are left to the run-job bundle. */
const runJobFromItsBundle = {
  name: 'run-job-from-its-bundle',
  setup(b) {
    b.onResolve({ filter: /^\.\/(cli\/)?run-job-verb\.js$/ }, (args) =>
      /[\\/]src[\\/](cli[\\/]run-cli|main)\.ts$/.test(args.importer)
        ? { path: RUN_JOB_VERB, external: true }
        : undefined,
    );
  },
};

/**
 * Our `import { x } from 'node:fs'` (any `node:` built-in) is bundled as a require of the
 * built-in. Left as an ES import, Node builds an ES module facade of the built-in, which
 * reads every export, lazy getters included: `node:fs` then loads its streams, fs/promises
 * and readline, `node:crypto` all of Web Crypto, neither of which a short `run-job` uses.
 * esbuild's CommonJS interop reads an export when the code uses it.
 */
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) =>
      args.kind === 'import-statement' ? { path: args.path, namespace: 'builtin-by-require' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'builtin-by-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * pino, in `run-job`'s bundle, without what a logger writing to stdout never uses: its
 * transports' thread-stream (loaded when a transport is made, never here), and
 * node:worker_threads and node:assert, whose loading (the stream classes with them) costs
 * a short run more than its logging. This bundle runs on the main thread only (its chart
 * worker is bundled apart), which is what pino asks worker_threads. Each shim replaces one
 * `require` in a named file; a pino or sonic-boom that no longer has it fails the build.
 */
const PINO_SHIMS = [
  {
    importer: /[\\/]node_modules[\\/]pino[\\/]lib[\\/]transport\.js$/,
    module: 'thread-stream',
    contents: `let ThreadStream;
module.exports = function LazyThreadStream(options) {
  ThreadStream ??= require('thread-stream');
  return new ThreadStream(options);
};`,
  },
  {
    importer: /[\\/]node_modules[\\/]pino[\\/]lib[\\/]tools\.js$/,
    module: 'worker_threads',
    contents: 'module.exports = { isMainThread: true };',
  },
  {
    importer: /[\\/]node_modules[\\/]sonic-boom[\\/]index\.js$/,
    module: 'assert',
    contents: "module.exports = (...args) => require('node:assert')(...args);",
  },
];

const pinoWithoutThreads = {
  name: 'pino-without-threads',
  setup(b) {
    const used = new Set();
    b.onResolve({ filter: /^(thread-stream|worker_threads|assert)$/ }, (args) => {
      const i = PINO_SHIMS.findIndex((s) => s.module === args.path && s.importer.test(args.importer));
      if (i < 0) return undefined;
      used.add(i);
      return { path: `${i}`, namespace: 'pino-shim', pluginData: { resolveDir: args.resolveDir } };
    });
    b.onLoad({ filter: /.*/, namespace: 'pino-shim' }, (args) => ({
      contents: PINO_SHIMS[Number(args.path)].contents,
      resolveDir: args.pluginData.resolveDir,
      loader: 'js',
    }));
    b.onEnd((result) => {
      if (result.errors.length > 0 || used.size === PINO_SHIMS.length) return;
      const missing = PINO_SHIMS.filter((_, i) => !used.has(i)).map((s) => s.module);
      result.errors.push({
        text: `pino-without-threads: no require of ${missing.join(', ')} where expected`,
      });
    });
  },
};

/**
 * better-sqlite3's JavaScript, in `run-job`'s bundle: left in node_modules it is fifteen
 * CommonJS files to find, read and wrap one by one, a few milliseconds of a run with
 * nothing to do. Only its native addon stays outside, and it is found as the package finds
 * it (a compiled build, else the prebuilt binary), from the installed package's folder:
 * the one place the package uses `__dirname`, which a bundle does not have. A
 * better-sqlite3 that no longer looks for its addon there fails the build.
 */
const BETTER_SQLITE_BINDING = /[\\/]node_modules[\\/]better-sqlite3[\\/]lib[\\/]binding\.js$/;

const betterSqliteBundled = {
  name: 'better-sqlite3-bundled',
  setup(b) {
    let found = false;
    b.onLoad({ filter: BETTER_SQLITE_BINDING }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes("path.join(__dirname, '..',")) return undefined;
      found = true;
      // The package's main file is lib/index.js, beside binding.js.
      const lib = "require('path').dirname(require.resolve('better-sqlite3'))";
      return {
        contents: `const __betterSqliteLib = ${lib};\n${source.replaceAll('__dirname', '__betterSqliteLib')}`,
        loader: 'js',
      };
    });
    b.onEnd((result) => {
      if (result.errors.length === 0 && !found)
        result.errors.push({
          text: 'better-sqlite3-bundled: lib/binding.js no longer finds its addon from __dirname',
        });
    });
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
    plugins: [builtinsByRequire],
  };
}

/** The build's options, also used by the test that runs the built entry on old Nodes. */
export function distBuildOptions(outdir) {
  return {
    ...commonOptions(outdir),
    // chart-worker.js sits next to the chunks: chart-renderer.ts finds it beside itself.
    entryPoints: { main: 'src/main.ts', 'chart-worker': 'src/charts/chart-worker.ts' },
    plugins: [builtinsByRequire, runJobFromItsBundle],
  };
}

/** Every build `npm run build` runs: the CLI, then `run-job`'s bundle and its chart worker. */
export function distBuilds(outdir) {
  const runJobDir = join(outdir, RUN_JOB_DIR);
  return [
    distBuildOptions(outdir),
    {
      ...commonOptions(runJobDir),
      entryPoints: { 'run-job-verb': 'src/cli/run-job-verb.ts' },
      external: EXTERNAL.filter((name) => name !== 'better-sqlite3'),
      plugins: [builtinsByRequire, pinoWithoutThreads, betterSqliteBundled],
    },
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
