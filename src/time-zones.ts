/**
 * Time zones as people type them: an IANA name in any case (`europe/berlin`), or the city
 * it is named after (`Berlin`, `new york`, `Buenos_Aires`). The zones are the runtime's own
 * (`Intl.supportedValuesOf('timeZone')`), so the list never goes stale with the package
 * tree. What resolves to nothing gets the closest cities as "did you mean" suggestions.
 * Settings (`tz=Berlin`), `subscribe` and the demo console all read zones through here.
 */
import { closestMatches } from './closest-matches.js';

type TimeZoneLookup = { ok: true; zone: string } | { ok: false; suggestions: string[] };

/** `America/Argentina/Buenos_Aires` → `Buenos Aires`; `UTC` → `UTC`. */
export function zoneCity(zone: string): string {
  return (zone.split('/').at(-1) ?? zone).replace(/_/g, ' ');
}

const normal = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, ' ');

/**
 * Zones the runtime lists under a city's old name (ICU keeps CLDR's: Asia/Calcutta,
 * Europe/Kiev), by the name tzdb has used since (its `backward` file). The runtime accepts
 * these names too, so a city typed as people spell it now is stored as they spell it.
 */
const RENAMED = [
  'Africa/Asmara',
  'America/Atikokan',
  'America/Nuuk',
  'Asia/Ho_Chi_Minh',
  'Asia/Kathmandu',
  'Asia/Kolkata',
  'Asia/Yangon',
  'Atlantic/Faroe',
  'Europe/Kyiv',
  'Pacific/Chuuk',
  'Pacific/Kanton',
  'Pacific/Pohnpei',
];

let byCity: Map<string, string[]> | undefined;

/** City (normalised) → the zones named after it; built on first use. */
function cities(): Map<string, string[]> {
  if (!byCity) {
    byCity = new Map();
    for (const zone of [...Intl.supportedValuesOf('timeZone'), ...RENAMED.filter(canonicalZone)]) {
      if (!zone.includes('/')) continue;
      const key = normal(zoneCity(zone));
      byCity.set(key, [...(byCity.get(key) ?? []), zone]);
    }
  }
  return byCity;
}

/** The canonical spelling of an IANA name the runtime accepts (`europe/berlin` → `Europe/Berlin`), else null. */
function canonicalZone(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Up to three zones whose city is closest to `input`, as `Berlin (Europe/Berlin)`. */
export function suggestTimeZones(input: string, max = 3): string[] {
  const names = [...cities().keys()];
  return closestMatches(normal(input), names, { max }).flatMap((key) =>
    (cities().get(key) ?? []).slice(0, 1).map((zone) => `${zoneCity(zone)} (${zone})`),
  );
}

export function resolveTimeZone(input: string): TimeZoneLookup {
  const typed = input.trim();
  if (typed === '') return { ok: false, suggestions: [] };
  const canonical = canonicalZone(typed.replace(/\s+/g, '_'));
  if (canonical) return { ok: true, zone: canonical };
  const zones = cities().get(normal(typed)) ?? [];
  // One city, one zone; a name shared by two regions is not guessed.
  if (zones.length === 1) return { ok: true, zone: zones[0]! };
  if (zones.length > 1) return { ok: false, suggestions: zones.map((z) => `${zoneCity(z)} (${z})`) };
  return { ok: false, suggestions: suggestTimeZones(typed) };
}
