/** read-ahead.ts: a run's entries taken once per brand; anything else read alone. */
import { expect, it } from 'vitest';
import type { JobContext } from '../../src/jobs/job-context.js';
import { byBrand, readAhead } from '../../src/jobs/read-ahead.js';

const runA = {} as JobContext;
const runB = {} as JobContext;

it('gives each selected brand its entry once, and reads alone a brand taken already, not selected, or of another run', async () => {
  const ahead = readAhead<string | null>();
  ahead.keep(
    runA,
    byBrand(['b1', 'b2'], (id) => (id === 'b1' ? 'b1 read ahead' : null)),
  );
  const alone: string[] = [];
  const read = (id: string) => async () => {
    alone.push(id);
    return `${id} read alone`;
  };
  expect(await ahead.take(runA, 'b1', read('b1'))).toBe('b1 read ahead');
  // An entry of null is an entry: the brand had nothing stored, nothing more to read.
  expect(await ahead.take(runA, 'b2', read('b2'))).toBeNull();
  expect(await ahead.take(runA, 'b1', read('b1'))).toBe('b1 read alone');
  expect(await ahead.take(runA, 'b3', read('b3'))).toBe('b3 read alone');
  expect(await ahead.take(runB, 'b2', read('b2'))).toBe('b2 read alone');
  expect(alone).toEqual(['b1', 'b3', 'b2']);
});
