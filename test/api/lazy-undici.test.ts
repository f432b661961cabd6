/**
 * The client's connection pool loads only undici's Agent and what it needs, not the whole
 * package (fetch, WebSocket, caches): measured in a fresh process, as a run-job's first
 * request would load it. The Agent is undici's own class, so it is the pool the package
 * would have given.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** undici's files in the module cache of a process that runs `code` (an ES module). */
function undiciFilesLoadedBy(code: string): string[] {
  const report = `
    import { createRequire } from 'node:module';
    const cache = createRequire(import.meta.url).cache;
    process.stdout.write(JSON.stringify(Object.keys(cache).filter((k) => k.includes('/node_modules/undici/'))));`;
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', `${code}\n${report}`],
    {
      cwd: repo,
      env: { PATH: process.env['PATH'] ?? '' },
      encoding: 'utf8',
    },
  );
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as string[];
}

describe('lazyAgent', () => {
  it("loads undici's Agent without fetch, WebSocket or the mock agents", () => {
    const files = undiciFilesLoadedBy(`
      const { lazyAgent } = await import('./src/api/lazy-undici.ts');
      const pool = lazyAgent({ connections: 2 });
      if (typeof pool.get().dispatch !== 'function') throw new Error('not a dispatcher');
      await pool.close();`);
    expect(files.some((f) => f.endsWith('/lib/dispatcher/agent.js'))).toBe(true);
    expect(files.filter((f) => /\/lib\/(web|mock|cache)\//.test(f))).toEqual([]);
    expect(files.some((f) => f.endsWith('/undici/index.js'))).toBe(false);
  });

  it("is the package's own Agent class", async () => {
    const { loadAgentClass } = await import('../../src/api/lazy-undici.js');
    const { Agent } = await import('undici');
    expect(loadAgentClass()).toBe(Agent);
  });
});
