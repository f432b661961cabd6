/**
 * Country names and ISO-2 codes the brand endpoints accept (API.md §4.6: an ISO-2 code,
 * the alias UK, or a full country name).
 */
const COUNTRIES: Readonly<Record<string, string>> = {
  AE: 'United Arab Emirates',
  AR: 'Argentina',
  AT: 'Austria',
  AU: 'Australia',
  BD: 'Bangladesh',
  BE: 'Belgium',
  BG: 'Bulgaria',
  BR: 'Brazil',
  CA: 'Canada',
  CH: 'Switzerland',
  CL: 'Chile',
  CN: 'China',
  CO: 'Colombia',
  CZ: 'Czechia',
  DE: 'Germany',
  DK: 'Denmark',
  EE: 'Estonia',
  EG: 'Egypt',
  ES: 'Spain',
  FI: 'Finland',
  FR: 'France',
  GB: 'United Kingdom',
  GR: 'Greece',
  HK: 'Hong Kong',
  HR: 'Croatia',
  HU: 'Hungary',
  ID: 'Indonesia',
  IE: 'Ireland',
  IL: 'Israel',
  IN: 'India',
  IS: 'Iceland',
  IT: 'Italy',
  JP: 'Japan',
  KE: 'Kenya',
  KR: 'South Korea',
  LT: 'Lithuania',
  LU: 'Luxembourg',
  LV: 'Latvia',
  MA: 'Morocco',
  MX: 'Mexico',
  MY: 'Malaysia',
  NG: 'Nigeria',
  NL: 'Netherlands',
  NO: 'Norway',
  NZ: 'New Zealand',
  PE: 'Peru',
  PH: 'Philippines',
  PK: 'Pakistan',
  PL: 'Poland',
  PT: 'Portugal',
  RO: 'Romania',
  RS: 'Serbia',
  SA: 'Saudi Arabia',
  SE: 'Sweden',
  SG: 'Singapore',
  SI: 'Slovenia',
  SK: 'Slovakia',
  TH: 'Thailand',
  TR: 'Turkey',
  TW: 'Taiwan',
  UA: 'Ukraine',
  US: 'United States',
  VN: 'Vietnam',
  ZA: 'South Africa',
};

/** Other spellings people type for the same countries. */
const ALIASES: Readonly<Record<string, string>> = {
  UK: 'GB',
  'GREAT BRITAIN': 'GB',
  BRITAIN: 'GB',
  ENGLAND: 'GB',
  USA: 'US',
  'UNITED STATES OF AMERICA': 'US',
  AMERICA: 'US',
  'THE NETHERLANDS': 'NL',
  HOLLAND: 'NL',
  KOREA: 'KR',
  'REPUBLIC OF KOREA': 'KR',
  'CZECH REPUBLIC': 'CZ',
  UAE: 'AE',
  TÜRKIYE: 'TR',
  TURKIYE: 'TR',
};

const BY_NAME: ReadonlyMap<string, string> = new Map(
  Object.entries(COUNTRIES).map(([code, name]) => [name.toUpperCase(), code]),
);

/** ISO-2 code of a code, alias or full name (case-insensitive), or null when unknown. */
export function resolveCountry(input: string): string | null {
  const key = input.trim().toUpperCase();
  if (key.length === 0) return null;
  if (key in COUNTRIES) return key;
  return ALIASES[key] ?? BY_NAME.get(key) ?? null;
}

/** ISO-2 only (plus the UK alias), as the markets endpoint takes. */
export function resolveIsoCode(input: string): string | null {
  const key = input.trim().toUpperCase();
  if (key === 'UK') return 'GB';
  return key in COUNTRIES ? key : null;
}

export function countryName(code: string): string {
  return COUNTRIES[code] ?? code;
}
