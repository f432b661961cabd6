/** Sizes on disk as people read them (status: the database's size). */
import { describe, expect, it } from 'vitest';
import { bytesText } from '../../src/figures/number-text.js';

describe('bytesText', () => {
  it.each([
    [0, '0 bytes'],
    [850, '850 bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [12.4 * 1024 * 1024, '12.4 MB'],
    [1023.96 * 1024 * 1024, '1,024 MB'],
    [1.25 * 1024 ** 3, '1.3 GB'],
    [3 * 1024 ** 5, '3,072 TB'],
  ])('%d bytes read "%s"', (n, text) => {
    expect(bytesText(n)).toBe(text);
  });

  it('says nothing it does not know', () => {
    for (const n of [null, undefined, Number.NaN, -1]) expect(bytesText(n)).toBe('—');
  });
});
