import { describe, expect, it } from 'vitest';
import { timestampParser } from '../src/timestamp-parser.js';

describe('timestampParser', () => {
  it('answers as Date.parse does, for repeated texts, past its few remembered ones and for text that is not a time', () => {
    const days = Array.from({ length: 40 }, (_, d) => new Date(Date.UTC(2026, 10, 1 + d, 6)).toISOString());
    const texts = [...days, 'not a time', '', ...days.toReversed(), 'not a time', days[3]!, days[30]!];
    const parse = timestampParser();
    // Each text as a string of its own, as JSON.parse makes them.
    for (const text of texts) expect(parse(text.split('').join(''))).toStrictEqual(Date.parse(text));
  });
});
