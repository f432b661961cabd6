/**
 * Typed access to a subcommand's `--flags`, with the usage error a person can act on:
 * "`--limit` takes a whole number from 1 to 200". Unknown flags are refused rather than
 * ignored, so a typo (`--domian`) does not silently show unfiltered data.
 */

import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { UserError } from '../../../messages/user-error.js';

/** Flags every subcommand tolerates (`--share` is read by the share machinery). */
const ALWAYS_ALLOWED = ['share'];

export interface FlagReader {
  /** A flag's text value; a flag given without a value is a usage error. */
  string(...names: string[]): string | undefined;
  /** A whole number within [min, max]. */
  int(min: number, max: number, ...names: string[]): number | undefined;
  /** A value-less switch such as `--compare`. */
  bool(...names: string[]): boolean;
  /** Throws for any flag not read through this reader nor listed in `alsoAllowed`. */
  rejectUnknown(...alsoAllowed: string[]): void;
}

export function flagReader(
  flags: Readonly<Record<string, string | true>>,
  fail: (message: Mrkdwn) => UserError,
): FlagReader {
  const known = new Set<string>(ALWAYS_ALLOWED);
  const find = (names: readonly string[]): [string, string | true] | undefined => {
    for (const n of names) known.add(n);
    for (const n of names) {
      const v = flags[n];
      if (v !== undefined) return [n, v];
    }
    return undefined;
  };
  return {
    string(...names) {
      const hit = find(names);
      if (!hit) return undefined;
      const [name, value] = hit;
      if (value === true || value.trim() === '')
        throw fail(mrkdwn`\`--${escapeMrkdwn(name)}\` needs a value.`);
      return value.trim();
    },
    int(min, max, ...names) {
      const hit = find(names);
      if (!hit) return undefined;
      const [name, value] = hit;
      const text = value === true ? '' : value.trim();
      const n = /^[+]?\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
      if (!Number.isInteger(n) || n < min || n > max) {
        const got = text === '' ? mrkdwn`no value` : mrkdwn`“${escapeMrkdwn(text.slice(0, 30))}”`;
        throw fail(
          mrkdwn`\`--${escapeMrkdwn(name)}\` takes a whole number from ${min} to ${max} (got ${got}).`,
        );
      }
      return n;
    },
    bool(...names) {
      const hit = find(names);
      if (!hit) return false;
      const [name, value] = hit;
      if (value === true || /^(true|yes|on|1)$/i.test(value)) return true;
      if (/^(false|no|off|0)$/i.test(value)) return false;
      throw fail(mrkdwn`\`--${escapeMrkdwn(name)}\` takes no value.`);
    },
    rejectUnknown(...alsoAllowed) {
      for (const n of alsoAllowed) known.add(n);
      const unknown = Object.keys(flags).filter((f) => !known.has(f));
      if (unknown.length > 0) {
        const list = joinMrkdwn(
          unknown.map((f) => mrkdwn`\`--${escapeMrkdwn(f.slice(0, 40))}\``),
          mrkdwn`, `,
        );
        throw fail(mrkdwn`Unknown flag${unknown.length === 1 ? mrkdwn`` : mrkdwn`s`} ${list} here.`);
      }
    },
  };
}
