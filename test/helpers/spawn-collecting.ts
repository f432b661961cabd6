/** A child process whose stdout and stderr are collected as they come, for tests and benches. */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

export interface CollectedChild {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Its exit code, when it exits. */
  exited: Promise<number | null>;
}

export function spawnCollecting(
  command: string,
  args: readonly string[],
  options: Omit<SpawnOptions, 'stdio'>,
): CollectedChild {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const collect = (d: Buffer) => {
    out += d.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}
