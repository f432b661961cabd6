/**
 * Typed reads of a button's JSON value. Our own buttons always carry valid values, so a
 * field that is missing or of the wrong kind means a stale or foreign message: the user is
 * told to run the command again rather than shown a type error.
 */

import { rangePresets } from '../../api/schemas/index.js';
import type { DateRangeParams } from '../../api/visibility-api.js';
import { mrkdwn } from '../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../messages/user-error.js';

const stale = () =>
  new UserError(
    UserErrorCode.StaleAction,
    mrkdwn`That button is from an older message; run the command again.`,
  );

interface ValueFields {
  string(key: string): string;
  optionalString(key: string): string | undefined;
  int(key: string, min: number, max: number): number;
  optionalInt(key: string, min: number, max: number): number | undefined;
  oneOf<T extends string>(key: string, allowed: readonly T[]): T;
  optionalOneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined;
  optionalStrings(key: string): string[] | undefined;
  optionalRange(key: string): DateRangeParams | undefined;
}

export function valueFields(value: Record<string, unknown>): ValueFields {
  const optionalString = (key: string) => {
    const v = value[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw stale();
    return v;
  };
  const optionalInt = (key: string, min: number, max: number) => {
    const v = value[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw stale();
    return v;
  };
  const optionalOneOf = <T extends string>(key: string, allowed: readonly T[]) => {
    const v = optionalString(key);
    if (v !== undefined && !(allowed as readonly string[]).includes(v)) throw stale();
    return v as T | undefined;
  };
  const required = <T>(v: T | undefined): T => {
    if (v === undefined || v === '') throw stale();
    return v;
  };
  return {
    optionalString,
    optionalInt,
    optionalOneOf,
    string: (key) => required(optionalString(key)),
    int: (key, min, max) => required(optionalInt(key, min, max)),
    oneOf: (key, allowed) => required(optionalOneOf(key, allowed)),
    optionalStrings(key) {
      const v = value[key];
      if (v === undefined || v === null) return undefined;
      if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw stale();
      return v as string[];
    },
    optionalRange(key) {
      const v = value[key];
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'object' || Array.isArray(v)) throw stale();
      const r = valueFields(v as Record<string, unknown>);
      const rangePreset = r.optionalOneOf('rangePreset', rangePresets);
      const startDate = r.optionalString('startDate');
      const endDate = r.optionalString('endDate');
      return {
        ...(rangePreset ? { rangePreset } : {}),
        ...(startDate ? { startDate } : {}),
        ...(endDate ? { endDate } : {}),
      };
    },
  };
}
