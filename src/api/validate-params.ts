/**
 * Parameter checks run before anything is sent (docs/api.md §4 and §8 "Bounds"), so a typo in
 * Slack costs no request against the key's budget and the user gets a precise message.
 * Each check throws InvalidParamsError naming the parameter as the caller spelled it.
 */

import { isCalendarDate } from '../utc-days.js';
import { InvalidParamsError } from './errors.js';
import { rangePresets } from './schemas/values.js';
import type { DateRangeParams } from './visibility-api.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function assertUuid(param: string, value: unknown, what = 'an id'): asserts value is string {
  if (typeof value !== 'string' || !UUID.test(value)) {
    throw new InvalidParamsError(param, `${param} must be ${what} in UUID form, got ${show(value)}.`);
  }
}

export function assertBrandId(value: unknown, param = 'brandId'): asserts value is string {
  assertUuid(param, value, 'a brand id');
}

/** `undefined` passes: the service applies its default. */
export function assertIntInRange(param: string, value: unknown, min: number, max: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidParamsError(
      param,
      `${param} must be a whole number from ${min} to ${max}, got ${show(value)}.`,
    );
  }
}

export function assertOffset(value: unknown, param = 'offset'): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new InvalidParamsError(param, `${param} must be a whole number of 0 or more, got ${show(value)}.`);
  }
}

export function assertOneOf<T extends string>(
  param: string,
  value: unknown,
  allowed: readonly T[],
): asserts value is T | undefined {
  if (value === undefined) return;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new InvalidParamsError(param, `${param} must be one of ${allowed.join(', ')}, got ${show(value)}.`);
  }
}

export function assertNonEmpty(param: string, value: unknown, hint = ''): asserts value is string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new InvalidParamsError(param, `${param} must not be empty${hint}.`);
  }
}

/** Optional strings, when given, must say something. */
export function assertOptionalNonEmpty(param: string, value: unknown): void {
  if (value !== undefined) assertNonEmpty(param, value);
}

/**
 * docs/api.md §4.9: `start_date`/`end_date` are required with `range_preset=custom` and mean
 * nothing without it; sending them with another preset would be silently ignored, which
 * would show the user a different period from the one they asked for.
 */
export function assertDateRange(params: DateRangeParams): void {
  assertOneOf('rangePreset', params.rangePreset, rangePresets);
  const { startDate, endDate } = params;
  if (params.rangePreset !== 'custom') {
    if (startDate !== undefined || endDate !== undefined) {
      const param = startDate !== undefined ? 'startDate' : 'endDate';
      throw new InvalidParamsError(param, `${param} can only be used with rangePreset "custom".`);
    }
    return;
  }
  if (startDate === undefined || endDate === undefined) {
    const param = startDate === undefined ? 'startDate' : 'endDate';
    throw new InvalidParamsError(param, 'A custom range needs both startDate and endDate (YYYY-MM-DD).');
  }
  assertIsoDate('startDate', startDate);
  assertIsoDate('endDate', endDate);
  if (startDate > endDate) {
    throw new InvalidParamsError('startDate', `startDate ${startDate} is after endDate ${endDate}.`);
  }
}

function assertIsoDate(param: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || !isCalendarDate(value))
    throw new InvalidParamsError(param, `${param} must be a date written YYYY-MM-DD, got ${show(value)}.`);
}

export function assertIso2(param: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || !/^[A-Za-z]{2}$/.test(value)) {
    throw new InvalidParamsError(
      param,
      `${param} must be a two-letter country code such as GB or US, got ${show(value)}.`,
    );
  }
}

export function assertHttpUrl(param: string, value: unknown): asserts value is string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new InvalidParamsError(param, `${param} must be an absolute http(s) URL, got ${show(value)}.`);
  }
}

export function assertList(
  param: string,
  value: unknown,
  minLength: number,
): asserts value is readonly unknown[] {
  if (!Array.isArray(value)) throw new InvalidParamsError(param, `${param} must be a list.`);
  if (value.length < minLength) {
    throw new InvalidParamsError(
      param,
      `${param} must list at least ${minLength} value${minLength === 1 ? '' : 's'}.`,
    );
  }
}

function show(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (value === undefined) return 'nothing';
  return String(value);
}
