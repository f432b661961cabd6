/**
 * Text to stdout from a short CLI run (`run-job`): its summary lines and its log lines,
 * written to the descriptor at once, in the order they were made. Not through
 * process.stdout or pino's default destination: the first builds Node's stream classes,
 * the second a buffered writer with an exit hook, each a few milliseconds of a `run-job`
 * with nothing to do. Whatever the descriptor does not take at once (a full non-blocking
 * pipe, an error) goes through process.stdout, which waits or ignores as before, and so
 * does everything after it, so lines never overtake one another.
 */
import { writeSync } from 'node:fs';
import type { DestinationStream } from 'pino';

let viaStream = false;

export function writeStdout(text: string): void {
  if (viaStream) {
    process.stdout.write(text);
    return;
  }
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
  } catch {
    viaStream = true;
    process.stdout.write(bytes.subarray(written));
  }
}

/** A logger's destination writing each line with writeStdout. */
export const stdoutLines: DestinationStream = { write: writeStdout };
