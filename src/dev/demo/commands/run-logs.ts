/** `:logs`: the last lines of the service's log (pino JSON), one readable line each. */
import { readFile } from 'node:fs/promises';
import type { ConsoleContext } from '../console-context.js';

const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
const SHOWN = 20;

function readable(line: string): string {
  try {
    const entry = JSON.parse(line) as {
      level?: number;
      time?: number;
      msg?: string;
      err?: { message?: string };
    };
    const time = entry.time ? new Date(entry.time).toISOString().slice(11, 19) : '';
    const err = entry.err?.message ? ` (${entry.err.message})` : '';
    return `${time} ${LEVELS[entry.level ?? 30] ?? entry.level} ${entry.msg ?? ''}${err}`;
  } catch {
    return line;
  }
}

export async function runLogs(ctx: ConsoleContext): Promise<void> {
  const text = await readFile(ctx.stack.logPath, 'utf8').catch(() => '');
  const lines = text.split('\n').filter(Boolean);
  if (lines.length === 0) {
    ctx.io.print('The service logged no warnings or errors.');
    return;
  }
  for (const line of lines.slice(-SHOWN)) ctx.io.print(readable(line));
}
