/**
 * The service's own error and status texts, reworded for the marketer who reads them.
 * The service writes for developers: `Market FR already exists (parameter location)`,
 * `Check meta.generation_status on GET /get-content-ideas.`, `Invalid parameter
 * 'brand_id': must be a UUID`. Known messages get a sentence of their own; for the rest,
 * parameter notes, endpoint paths and sentences that point at response fields are
 * dropped, request parameter names become words, and what remains is kept as data
 * (escaped, never markup). Pure; no I/O.
 */
import { escapeMrkdwn, type Mrkdwn } from './mrkdwn.js';
import { ownLookup } from './own-lookup.js';
import { truncatePlain } from './truncate-mrkdwn.js';
import { fieldName } from './vocabulary.js';

const MAX_INPUT = 1000;

/** Request parameters (docs/api.md §4, docs/api.md §10 crawler parameters) as a person names them. */
const PARAMETERS: Readonly<Record<string, string>> = {
  brand_id: 'the brand',
  brandid: 'the brand',
  location: 'the country',
  country: 'the country',
  market_id: 'the market',
  marketid: 'the market',
  market_name: 'the market name',
  marketname: 'the market name',
  location_region: 'the region',
  location_city: 'the city',
  location_provider_code: 'the provider location code',
  aliases: 'the aliases',
  days: 'the number of days',
  days_back: 'the number of days',
  daysback: 'the number of days',
  limit: 'the number of rows',
  offset: 'the position in the list',
  cursor: 'the page',
  domain: 'the domain',
  urls: 'the URLs',
  finding_id: 'the finding',
  findingid: 'the finding',
  range_preset: 'the date range',
  rangepreset: 'the date range',
  start_date: 'the start date',
  startdate: 'the start date',
  end_date: 'the end date',
  enddate: 'the end date',
  compare_to: 'the comparison',
  compareto: 'the comparison',
  tag_ids: 'the tags',
  tagids: 'the tags',
  include: 'the details asked for',
  view: 'the view',
  lens: 'the tab',
  entity_id: 'the item',
  entityid: 'the item',
  http_status: 'the HTTP status',
  httpstatus: 'the HTTP status',
};

/** A request parameter in words, lower case: "the number of days". */
export function parameterWords(param: string): string {
  const known = ownLookup(PARAMETERS, param.trim().toLowerCase());
  return known ?? `the ${fieldName(param)}`;
}

const capitalise = (s: string) => (s === '' ? s : s[0]!.toUpperCase() + s.slice(1));
const sentence = (s: string) => {
  const t = s.trim();
  return t === '' || /[.!?…]$/.test(t) ? t : `${t}.`;
};

/** Messages this service is known to send, each with what a person should read instead. */
const KNOWN: ReadonlyArray<[RegExp, (m: RegExpExecArray) => string]> = [
  [
    /^No finding (.+?) for this brand\.?$/i,
    (m) =>
      `There is no access finding “${m[1]}” for this brand; the crawler's access view lists the current ones.`,
  ],
  [
    /^No market \S+ on (.+?)\.?$/i,
    (m) => `That market is no longer on ${m[1]}; it may have been removed already.`,
  ],
  [
    /\bNo brand \S+ for this API key\b/i,
    () =>
      'This brand is no longer visible to the API key (it may have been removed, or the key lost access).',
  ],
  [
    // `finding_id not found`: a parameter as code spells it, before "not found".
    /^['"`]?([a-z]+(?:_[a-z]+)+|[a-z]+[A-Z]\w*)['"`]? (?:was |is )?not found\.?$/,
    (m) => `${capitalise(parameterWords(m[1]!))} was not found.`,
  ],
  [
    /^'(.+)' is not an ISO 3166-1 alpha-2 country code\b.*$/i,
    (m) =>
      `“${m[1]}” is not a country the service knows; pick a country from the list or use its two-letter code, such as GB or DE.`,
  ],
];

/** `GET /get-content-ideas`, `/crawler/access/preview-fix`: a path of the API, with or without its method. */
const ENDPOINT =
  /\b(?:GET|POST|PUT|PATCH|DELETE)\s+\/\S*|(?<![\w.])\/(?:get-|crawler|ai-pages|prism)[\w\-/.]*/;
/** `meta.generation_status`, `data.items`: a field path of a response, meant for code. */
const FIELD_PATH = /\b(?:meta|data|body|query|params|response)\.[a-z]\w*|\b[a-z]\w*\.[a-z]*_[a-z_]+\b/i;
const PARAMETER_NOTE = /\s*\((?:parameter|param|field)s?[:\s]+[^)]*\)/gi;
/** `Invalid parameter 'brand_id': must be a UUID` */
const INVALID_PARAMETER = /\bInvalid (?:parameter|value for|param) ['"`]?([\w.-]+)['"`]?\s*:\s*/gi;
/** `view=sources` */
const ASSIGNMENT = /\b([a-z][a-z_]*)=([\w,-]+)/gi;
/** A parameter as a machine spells it (snake_case or camelCase), where it leads a clause: `domain: …`, `brand_id must …`. */
const LEADING_PARAMETER =
  /(^|[:;]\s*)([a-z]+(?:_[a-z]+)+|[a-z]+[A-Z]\w*|[a-z]+)(:\s+|\s+(?=must\b|is required\b|is missing\b))/g;

/** `limit: must be ≤ 200` reads as `limit must be ≤ 200`. */
const COLON_BEFORE_VERB = /\b(\w+):\s+(?=(?:must|is|are|should|cannot|can)\b)/g;

/** Clauses a service repeats (`x: must be 1–30: x: must be 1–30`), once. */
function withoutRepeats(text: string): string {
  const seen = new Set<string>();
  return text
    .split(/:\s+/)
    .filter((part) => {
      const key = part.trim().toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .join(': ');
}

function rewordSentence(text: string): string {
  let s = text.replace(PARAMETER_NOTE, '');
  s = s.replace(INVALID_PARAMETER, (_, p: string) => `${capitalise(parameterWords(p))} `);
  s = s.replace(ASSIGNMENT, (_, k: string, v: string) => `${parameterWords(k)} “${v}”`);
  s = s.replace(COLON_BEFORE_VERB, '$1 ');
  s = s.replace(LEADING_PARAMETER, (whole, lead: string, word: string, after: string) => {
    const known = ownLookup(PARAMETERS, word.toLowerCase());
    if (known === undefined && !/_|[A-Z]/.test(word)) return whole;
    const words = known ?? parameterWords(word);
    return `${lead}${lead === '' ? capitalise(words) : words}${after.startsWith(':') ? ': ' : ' '}`;
  });
  return withoutRepeats(s.replace(/\s{2,}/g, ' ').trim());
}

/**
 * The service's text as a person should read it: undefined when nothing is left once the
 * developer notes are gone (the caller then says it in its own words).
 */
export function plainServiceText(text: string | null | undefined): Mrkdwn | undefined {
  // The API layer keeps service messages to 300 characters; anything longer is cut here too.
  const raw = truncatePlain(text?.replace(/\s+/g, ' ').replace(PARAMETER_NOTE, '').trim() ?? '', MAX_INPUT);
  if (!raw) return undefined;
  for (const [pattern, reword] of KNOWN) {
    const m = pattern.exec(raw);
    if (m) return escapeMrkdwn(reword(m));
  }
  const kept = raw
    .split(/(?<=[.!?])\s+/)
    .filter((s) => !ENDPOINT.test(s) && !FIELD_PATH.test(s))
    .map((s) => sentence(rewordSentence(s)))
    .filter((s) => s !== '' && s !== '.');
  if (kept.length === 0) return undefined;
  return escapeMrkdwn(capitalise(kept.join(' ')));
}
