/**
 * Time zones as people type them: a city or an IANA name in any case, renamed cities by
 * their current name, and the closest cities for a near miss. The zones are the runtime's.
 */
import { describe, expect, it } from 'vitest';
import { resolveTimeZone, suggestTimeZones, zoneCity } from '../src/time-zones.js';

describe('resolveTimeZone', () => {
  it('takes a city, in any case, with spaces or underscores', () => {
    for (const [typed, zone] of [
      ['Berlin', 'Europe/Berlin'],
      ['berlin', 'Europe/Berlin'],
      ['  Paris ', 'Europe/Paris'],
      ['new york', 'America/New_York'],
      ['New_York', 'America/New_York'],
      ['Sao Paulo', 'America/Sao_Paulo'],
      ['Buenos Aires', expect.stringMatching(/Buenos_Aires$/)],
    ] as const) {
      expect(resolveTimeZone(typed), typed).toEqual({ ok: true, zone });
    }
  });

  it('takes an IANA name in any case, and UTC', () => {
    expect(resolveTimeZone('europe/berlin')).toEqual({ ok: true, zone: 'Europe/Berlin' });
    expect(resolveTimeZone('UTC')).toEqual({ ok: true, zone: 'UTC' });
    expect(resolveTimeZone('Etc/GMT+1')).toEqual({ ok: true, zone: 'Etc/GMT+1' });
  });

  it('knows renamed cities by the name people use now, and still by the old one', () => {
    expect(resolveTimeZone('Kyiv')).toEqual({ ok: true, zone: 'Europe/Kyiv' });
    expect(resolveTimeZone('Kolkata')).toEqual({ ok: true, zone: 'Asia/Kolkata' });
    expect(resolveTimeZone('Ho Chi Minh')).toEqual({ ok: true, zone: 'Asia/Ho_Chi_Minh' });
    expect(resolveTimeZone('Kiev').ok).toBe(true);
    // Stored names must stay usable by the runtime.
    for (const zone of ['Europe/Kyiv', 'Asia/Kolkata', 'Asia/Ho_Chi_Minh'])
      expect(() => new Intl.DateTimeFormat('en', { timeZone: zone })).not.toThrow();
  });

  it('suggests the closest cities for a near miss, and nothing for nonsense', () => {
    expect(resolveTimeZone('Berlim')).toEqual({
      ok: false,
      suggestions: ['Berlin (Europe/Berlin)', 'Belem (America/Belem)', 'Belize (America/Belize)'],
    });
    expect(resolveTimeZone('Lodnon')).toMatchObject({
      ok: false,
      suggestions: expect.arrayContaining(['London (Europe/London)']),
    });
    expect(resolveTimeZone('qqqqqqqq')).toEqual({ ok: false, suggestions: [] });
    expect(resolveTimeZone('')).toEqual({ ok: false, suggestions: [] });
    expect(suggestTimeZones('Tokio', 1)).toEqual(['Tokyo (Asia/Tokyo)']);
  });

  it('names a zone by its city', () => {
    expect(zoneCity('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
    expect(zoneCity('UTC')).toBe('UTC');
  });
});
