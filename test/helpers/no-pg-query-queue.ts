/**
 * Vitest setup file: a test file fails when pg warns that a statement was given to a
 * connection already running one ("Calling client.query() when the client is already
 * executing a query", deprecated, and gone in pg 9). Each file runs in a process of its
 * own, and pg warns once per process, so the file that caused it is the one that fails.
 */
import { afterAll } from 'vitest';

const QUEUED = 'already executing a query';
const seen: string[] = [];

process.on('warning', (warning) => {
  if (warning.message.includes(QUEUED)) seen.push(warning.stack ?? warning.message);
});

afterAll(() => {
  if (seen.length > 0) {
    throw new Error(
      `pg was given a statement on a connection that was still running one (run them one after another):\n${seen.join('\n')}`,
    );
  }
});
