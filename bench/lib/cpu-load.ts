/**
 * A load generator for benchmarks that must run on a busy machine: one child process per
 * core spinning on the CPU. Each child is bounded (it exits by itself after `maxMs`, so a
 * crashed bench never leaves it running) and is stopped by `stop()` as soon as the
 * measurement is done.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpus } from 'node:os';

export interface CpuLoad {
  readonly workers: number;
  stop(): Promise<void>;
}

/**
 * Busy loop in slices of 50 ms, so the child still notices SIGTERM promptly; it also stops
 * when its parent is gone (re-parented), so a killed bench leaves nothing spinning.
 */
const SPIN = `
const end = Date.now() + Number(process.argv[1]);
const parent = process.ppid;
const slice = () => {
  const t = Date.now() + 50;
  while (Date.now() < t) {}
  if (Date.now() < end && process.ppid === parent) setImmediate(slice);
};
slice();
`;

export function startCpuLoad(maxMs: number, workers = cpus().length): CpuLoad {
  const children: ChildProcess[] = Array.from({ length: workers }, () =>
    spawn(process.execPath, ['-e', SPIN, String(Math.ceil(maxMs))], { stdio: 'ignore' }),
  );
  return {
    workers,
    async stop() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}
