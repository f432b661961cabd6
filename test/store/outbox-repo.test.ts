/**
 * The outbox claim across processes on one SQLite file (the behaviour on both backends is
 * in test/store/contract/outbox.contract.test.ts): four processes claiming at the same
 * time, each under the file's write lock, never claim the same row.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { alertMessage } from './alert-message.js';
import { useTempOutbox } from './temp-db.js';

const ctx = useTempOutbox();

const msg = (n: number) => alertMessage(n, 0);

describe('outbox repo on one SQLite file', () => {
  it('four processes claiming at the same time never claim the same row', async () => {
    for (let i = 0; i < 2000; i++) await ctx.outbox.enqueue(msg(i));
    const worker = fileURLToPath(new URL('./outbox-claim-worker.ts', import.meta.url));
    const workers = ['w1', 'w2', 'w3', 'w4'].map((owner) =>
      spawn(process.execPath, ['--import', 'tsx', worker, ctx.t.path, owner, '2'], {
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    );
    const outputs = workers.map((w) => {
      let out = '';
      w.stdout.setEncoding('utf8');
      w.stdout.on('data', (chunk: string) => {
        out += chunk;
      });
      return {
        ready: new Promise<void>((resolve) => {
          const check = () => (out.startsWith('ready\n') ? resolve() : w.stdout.once('data', check));
          check();
        }),
        done: once(w, 'exit').then(() => out),
      };
    });
    // A barrier: nobody claims before everybody is up.
    await Promise.all(outputs.map((o) => o.ready));
    for (const w of workers) w.stdin.write('go\n');
    const claims = (await Promise.all(outputs.map((o) => o.done))).map(
      (out) => JSON.parse(out.slice('ready\n'.length)) as number[],
    );
    const all = claims.flat();
    expect(all).toHaveLength(2000);
    expect(new Set(all).size).toBe(2000);
    // More than one process got rows: the claims really overlapped.
    expect(claims.filter((c) => c.length > 0).length).toBeGreaterThan(1);
  }, 90_000);
});
