/**
 * pgText and pgJson on the real test server: what Postgres refuses as it comes (NUL in
 * text, NUL and lone surrogates in jsonb) is stored with U+FFFD in its place, and
 * everything else, including text that merely looks like an escape, goes through as it is.
 */
import { describe, expect, it } from 'vitest';
import { pgJson, pgJsonText, pgText } from '../../../src/store/postgres/pg-text.js';
import { usePostgresDatabase } from '../../helpers/postgres-database.js';

const pg = usePostgresDatabase();

describe('pgText', () => {
  it('replaces NUL, which a text column refuses, and leaves null and other text alone', async () => {
    const pool = pg.pool();
    await expect(pool.query('SELECT $1::text AS t', ['a\u0000b'])).rejects.toThrow();
    const { rows } = await pool.query<{ t: string }>('SELECT $1::text AS t', [pgText('a\u0000b\u0000')]);
    expect(rows[0]!.t).toBe('a\ufffdb\ufffd');
    expect(pgText(null)).toBeNull();
    const plain = 'ü "quoted" \\u0000 \n';
    expect(pgText(plain)).toBe(plain);
  });
});

describe('pgJson', () => {
  it('stores what jsonb refuses with U+FFFD in its place, keys included', async () => {
    const pool = pg.pool();
    const value = {
      nul: 'a\u0000b',
      [`key\u0000`]: ['lone high \ud800 x', 'lone low \udc00', 'pair 😀'],
      // A backslash followed by "u0000" is text, not an escape: it must survive.
      looksLikeEscape: '\\u0000 \\\\u0000',
      control: '\u0001\t',
      n: [1.5, -0.1, 1e21, 5e-324, null, true],
    };
    await expect(pool.query('SELECT $1::jsonb AS j', [JSON.stringify(value)])).rejects.toThrow();
    await expect(pool.query('SELECT $1::jsonb AS j', [JSON.stringify(['\ud800'])])).rejects.toThrow(
      /invalid input syntax for type json/,
    );
    const { rows } = await pool.query<{ j: unknown }>('SELECT $1::jsonb AS j', [pgJson(value)]);
    expect(rows[0]!.j).toEqual({
      nul: 'a\ufffdb',
      'key\ufffd': ['lone high \ufffd x', 'lone low \ufffd', 'pair 😀'],
      looksLikeEscape: '\\u0000 \\\\u0000',
      control: '\u0001\t',
      n: [1.5, -0.1, 1e21, 5e-324, null, true],
    });
  });

  it('returns JSON text with nothing to clean unchanged (the same string)', () => {
    const text = JSON.stringify([['https://a.example/?q="ü"'], [['present', 1, null]], [0]]);
    expect(pgJsonText(text)).toBe(text);
  });
});
