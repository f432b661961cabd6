import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Every test worker, and every CLI or `serve` the tests spawn, is a fresh process that
// compiles the same packages again (Bolt, Kysely, pg, the chart libraries): Node's compile
// cache keeps their compiled code on disk for the next process (about an eighth off a run).
// Node keys the cache by its version, so CI's two lines do not mix.
process.env['NODE_COMPILE_CACHE'] ??= join(tmpdir(), 'visibility-bot-test-compile-cache');

// In CI a JSON report is written as well, so .ci/run can print a plain
// "N passed, N failed" closing line.
const ci = process.env['CI'] === 'true';

/**
 * Coverage floors for the core layers, a little under what the suite reaches (measured
 * with `npm test`), so a real drop fails the build while a few lines moving does not.
 * Code a test reaches only in a spawned CLI process (test/e2e, test/cli) is not counted:
 * V8 coverage sees the test workers only.
 */
const coreFloors = {
  'src/figures/**': { lines: 98, branches: 90, functions: 98, statements: 96 },
  'src/api/**': { lines: 98, branches: 92, functions: 98, statements: 96 },
  'src/alerts/**': { lines: 98, branches: 90, functions: 98, statements: 96 },
  'src/store/**': { lines: 94, branches: 85, functions: 96, statements: 94 },
  'src/jobs/**': { lines: 92, branches: 81, functions: 91, statements: 89 },
  'src/messages/**': { lines: 96, branches: 85, functions: 99, statements: 94 },
  'src/use-cases/**': { lines: 95, branches: 85, functions: 98, statements: 94 },
};

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One real Postgres server per run (about a second to start); each test file that
    // needs it makes its own database there (test/helpers/postgres-database.ts).
    globalSetup: ['test/helpers/postgres-server.ts'],
    // A file fails when pg had to queue a statement on a busy connection.
    setupFiles: ['test/helpers/no-pg-query-queue.ts'],
    // Generous: these are safety nets, not performance checks. On a busy 2-core machine
    // (several test runs at once) a heavy property test or a spawned process can take
    // several times as long as it does alone; nothing here asserts how long anything takes.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker process runs its test files one after another in the same module graph,
    // instead of importing Bolt, Kysely, pg and the whole bot again for every file (that
    // import took about 300 s of the workers' time in a run, a third of it). Files keep
    // their own servers, databases and clocks; module-level memories are per app, not per
    // module (the App Home's AI Pages memo is keyed by its API client), and the pg guard
    // (no-pg-query-queue.ts) checks each file on its own.
    isolate: false,
    // Most files wait on servers, child processes and Postgres rather than compute, so a
    // worker more than the cores keeps them busy (vitest's default, cores − 1, runs one file
    // at a time on a 2-core machine). VISIBILITY_TEST_WORKERS overrides it.
    maxWorkers: Number(process.env['VISIBILITY_TEST_WORKERS']) || availableParallelism() + 1,
    reporters: ci ? ['default', 'json'] : ['default'],
    ...(ci ? { outputFile: { json: 'test-results.json' } } : {}),
    // On with `vitest run --coverage` (npm test); a run of a few files stays fast and
    // is not held to the floors.
    coverage: {
      provider: 'v8',
      include: ['src/**'],
      reporter: ['text-summary', 'json-summary'],
      thresholds: coreFloors,
    },
  },
});
