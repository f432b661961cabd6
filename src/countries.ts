/**
 * Countries as people type them: an ISO-2 code (de), the alias UK, or a name in any case
 * and with or without accents ("cote d'ivoire", "Korea, Republic of"). docs/api.md §4.6 accepts
 * all three forms for the location; the markets endpoint takes ISO-2 only, so the bot
 * resolves everything to a code first. The names come from i18n-iso-countries (the English
 * locale only); the Slack bot and the API simulator both read them from here.
 */
import countries from 'i18n-iso-countries/index.js';
// Only English: the package's default entry registers every locale it ships.
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

countries.registerLocale(english);

export interface Country {
  /** ISO 3166-1 alpha-2, upper case */
  code: string;
  name: string;
}

/**
 * The names people use where the package's first English name is the formal one
 * ("People's Republic of China", "Holy See (Vatican City State)"): the bot's replies and
 * pickers have always shown these. Every other country keeps the package's first name.
 */
const COMMON_NAMES: Readonly<Record<string, string>> = {
  BN: 'Brunei',
  CD: 'Democratic Republic of the Congo',
  CG: 'Republic of the Congo',
  CI: "Côte d'Ivoire",
  CN: 'China',
  CV: 'Cabo Verde',
  CZ: 'Czechia',
  FK: 'Falkland Islands',
  FM: 'Micronesia',
  GM: 'Gambia',
  IR: 'Iran',
  LA: 'Laos',
  MD: 'Moldova',
  MF: 'Saint Martin',
  MK: 'North Macedonia',
  PS: 'Palestine',
  RE: 'Réunion',
  RU: 'Russia',
  SX: 'Sint Maarten',
  SY: 'Syria',
  TW: 'Taiwan',
  TZ: 'Tanzania',
  US: 'United States',
  VA: 'Vatican City',
  VG: 'British Virgin Islands',
  VI: 'U.S. Virgin Islands',
};

/** Spellings the package does not list: everyday ones, then formal ones. */
const MORE_SPELLINGS: Readonly<Record<string, string>> = {
  Britain: 'GB',
  England: 'GB',
  Scotland: 'GB',
  Wales: 'GB',
  'Northern Ireland': 'GB',
  America: 'US',
  Holland: 'NL',
  Korea: 'KR',
  Swaziland: 'SZ',
  Burma: 'MM',
  Macedonia: 'MK',
  'East Timor': 'TL',
  Vatican: 'VA',
  Macau: 'MO',
  DRC: 'CD',
  'DR Congo': 'CD',
  'Congo-Kinshasa': 'CD',
  'Congo-Brazzaville': 'CG',
  'Viet Nam': 'VN',
  // Formal ISO names that the formal-prefix rule below cannot shorten.
  'Argentine Republic': 'AR',
  "Democratic People's Republic of Korea": 'KP',
  'French Republic': 'FR',
  'Gabonese Republic': 'GA',
  'Hellenic Republic': 'GR',
  'Hong Kong Special Administrative Region of China': 'HK',
  'Italian Republic': 'IT',
  'Kyrgyz Republic': 'KG',
  'Lebanese Republic': 'LB',
  'Macao Special Administrative Region of China': 'MO',
  'Portuguese Republic': 'PT',
  'Rwandese Republic': 'RW',
  'Saint Helena, Ascension and Tristan da Cunha': 'SH',
  'Slovak Republic': 'SK',
  'Socialist Republic of Viet Nam': 'VN',
  'Swiss Confederation': 'CH',
  'Togolese Republic': 'TG',
  'United Kingdom of Great Britain and Northern Ireland': 'GB',
  'United Mexican States': 'MX',
  'Virgin Islands of the United States': 'VI',
};

/** Case, accents, "the" and spacing do not matter: "The Netherlands" = "netherlands". */
function fold(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^the /, '');
}

// XK (Kosovo) is a user-assigned code, not ISO 3166-1: the API takes ISO-2 codes only.
const NAMES_BY_CODE = Object.entries(countries.getNames('en', { select: 'all' })).filter(
  ([code]) => code !== 'XK',
);

/** Each code's short name. */
const NAME: ReadonlyMap<string, string> = new Map(
  NAMES_BY_CODE.map(([code, names]) => [code, COMMON_NAMES[code] ?? names[0]!]),
);

export const COUNTRIES: readonly Country[] = [...NAME]
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

const BY_FOLDED_NAME: ReadonlyMap<string, string> = (() => {
  const byName = new Map<string, string>();
  // The first country to list a name keeps it ("Congo" is the Republic of the Congo).
  for (const [code, names] of NAMES_BY_CODE)
    for (const n of names) if (!byName.has(fold(n))) byName.set(fold(n), code);
  for (const [spelling, code] of Object.entries(MORE_SPELLINGS)) byName.set(fold(spelling), code);
  // Short names last, so they win over another country's alternative name.
  for (const [code, name] of NAME) byName.set(fold(name), code);
  return byName;
})();

export function isCountryCode(code: string): boolean {
  return NAME.has(code);
}

/** The short name of an ISO-2 code; the code itself when it is not a country. */
export function countryName(code: string): string {
  const upper = code.toUpperCase();
  return NAME.get(upper) ?? upper;
}

/** "Germany (DE)" */
export function countryLabel(code: string): string {
  const upper = code.toUpperCase();
  const name = NAME.get(upper);
  return name ? `${name} (${upper})` : upper;
}

const BY_FOLDED_SHORT_NAME: ReadonlyMap<string, string> = new Map(
  [...NAME].map(([code, name]) => [fold(name), code]),
);

/** "Federal Republic of ", "Kingdom of the ": what a formal ISO name puts before the short one. */
const FORMAL_PREFIX =
  /^(?:[\p{L}'-]+ ){0,3}?(?:republic|kingdom|state|states|principality|commonwealth|duchy|sultanate|union|confederation) of (?:the )?/u;

/**
 * A formal ISO name the package does not list ("Federal Republic of Germany", "Bolivia,
 * Plurinational State of"): the short name after the formal prefix, and only a short name,
 * so "Democratic People's Republic of Korea" is not taken for South Korea.
 */
function formalNameCode(folded: string): string | undefined {
  const comma = /^([^,]+), (.+)$/.exec(folded);
  const spelled = comma ? fold(`${comma[2]} ${comma[1]}`) : folded;
  const exact = BY_FOLDED_NAME.get(spelled);
  if (exact) return exact;
  const short = spelled.replace(FORMAL_PREFIX, '');
  return short === spelled ? undefined : BY_FOLDED_SHORT_NAME.get(short);
}

export function resolveCountry(input: string): Country | undefined {
  const trimmed = input.trim();
  if (trimmed === '') return undefined;
  const upper = trimmed.toUpperCase();
  if (/^[A-Z]{2}$/.test(upper) && isCountryCode(upper)) return { code: upper, name: NAME.get(upper)! };
  const folded = fold(trimmed);
  const code = BY_FOLDED_NAME.get(folded) ?? formalNameCode(folded);
  return code ? { code, name: NAME.get(code)! } : undefined;
}
