/**
 * Finds markup Slack would act on in anything the bot sends: broadcasts (`<!channel>`,
 * `<!here>`, `<!everyone>`), `<!subteam^…>`, user and channel mentions and links. Every
 * string Slack renders is walked: the message's top-level `text` (its notification), block,
 * element and option text, titles, labels, placeholders and hints, alt text. Ids, button
 * values, URLs and private metadata are data Slack never renders, so they are skipped.
 *
 * What the bot may legitimately write is allowed: `<!date^…>` tokens, mentions of ids the
 * test says the bot meant to make, and links whose target is one of the URLs the test fed
 * in as a URL (the cited page itself). Everything else with a `<` is reported, as is a bare
 * `&` that is not one of Slack's three entities (a sign that some text skipped escaping).
 */

import fc from 'fast-check';

export interface LiveMarkupOptions {
  /**
   * URLs given to the builder as URLs: linking to them is the point. A predicate suits
   * generated data whose only hostile links point at one known domain.
   */
  allowedUrls?: Iterable<string> | ((url: string) => boolean);
  /** User or channel ids the bot itself mentions (who acknowledged, who shared). */
  allowedIds?: Iterable<string>;
}

/** Keys whose string values Slack never shows as text. */
const NOT_RENDERED = new Set([
  'action_id',
  'block_id',
  'callback_id',
  'external_id',
  'value',
  'url',
  'image_url',
  'private_metadata',
  'initial_value',
  'initial_date',
  'initial_time',
  'event_type',
  'event_payload',
  'metadata',
  'response_type',
  'type',
  'style',
]);

/** Every rendered string with where it was found. */
export function renderedStrings(value: unknown, path = '$'): { path: string; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => renderedStrings(v, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    NOT_RENDERED.has(k) ? [] : renderedStrings(v, `${path}.${k}`),
  );
}

function normalizeUrl(url: string): string | undefined {
  try {
    // `|` would end a Slack link: links carry it percent-encoded.
    return new URL(url.trim().replace(/&amp;/g, '&')).href.replace(/\|/g, '%7C');
  } catch {
    return undefined;
  }
}

const ENTITY = /^&(?:amp|lt|gt);/;

/** Problems found; empty when nothing live survives. */
export function liveMarkup(value: unknown, options: LiveMarkupOptions = {}): string[] {
  const given = options.allowedUrls ?? [];
  const urls = new Set<string>();
  if (typeof given !== 'function') {
    for (const u of given) {
      const n = normalizeUrl(u);
      if (n) urls.add(n);
    }
  }
  const urlAllowed = (target: string) => {
    const n = normalizeUrl(target);
    if (n === undefined) return false;
    return typeof given === 'function' ? given(n) : urls.has(n);
  };
  const ids = new Set(options.allowedIds ?? []);
  const problems: string[] = [];
  for (const { path, text } of renderedStrings(value)) {
    for (let i = text.indexOf('<'); i !== -1; i = text.indexOf('<', i + 1)) {
      const close = text.indexOf('>', i + 1);
      const token = close === -1 ? text.slice(i) : text.slice(i, close + 1);
      const inner = close === -1 ? '' : text.slice(i + 1, close);
      const bar = inner.indexOf('|');
      const target = bar === -1 ? inner : inner.slice(0, bar);
      const label = bar === -1 ? '' : inner.slice(bar + 1);
      const ok =
        close !== -1 &&
        !inner.includes('<') &&
        (/^!date\^\d+\^[^|<>]*\|[^<>|]*$/.test(inner) ||
          (/^[@#][A-Z0-9]+$/.test(inner) && ids.has(inner.slice(1))) ||
          (/^https?:\/\//i.test(target) &&
            urlAllowed(target) &&
            !/[<>]/.test(label) &&
            label.replace(/&(?:amp|lt|gt);/g, '').indexOf('&') === -1));
      if (!ok) problems.push(`${path}: live ${JSON.stringify(token.slice(0, 80))}`);
    }
    // Inside links too: Slack reads entities in a link's URL and label alike.
    for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) {
      if (!ENTITY.test(text.slice(i, i + 5))) {
        problems.push(`${path}: bare & in ${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))}`);
        break;
      }
    }
  }
  return problems;
}

/** Links in the hostile strings all point here; a link to it in output is an injection. */
export const PHISH = 'phish.example';
export const notPhish = (url: string) => !url.includes(PHISH);

/** Hostile strings: everything Slack would act on, and what breaks naive escaping or cutting. */
export const HOSTILE_STRINGS = [
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<!channel|channel>',
  '<@U024BE7LH>',
  '<@W123ABC|admin>',
  '<#C024BE7LR>',
  '<#C024BE7LR|general>',
  '<!subteam^S012AB3CD|@security>',
  '<https://phish.example|Your dashboard>',
  '<https://phish.example>',
  '<mailto:boss@phish.example|Mail your boss>',
  '<tel:+15551234567|call>',
  'R&D <test>',
  '&lt;!channel&gt;',
  '&amp;',
  '&',
  '<',
  '>',
  '< !here >',
  '<<!here>>',
  '*bold* _it_ ~gone~ `code` ```block```',
  '> quoted',
  '|',
  '😀👩‍💻🇩🇪',
  'مرحبا <!here> بالعالم',
  '\u202Eevil\u202C',
  'e\u0301',
  '\ud800',
  '\u0000\u0007',
];

/** A hostile string, alone, inside ordinary text, repeated past any limit, or mixed. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 30 }), fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 30 }))
      .map(([a, h, b]) => `${a}${h}${b}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 12, unit: 'grapheme' })), {
        minLength: 1,
        maxLength: 12,
      })
      .map((parts) => parts.join(' ')),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...HOSTILE_STRINGS), fc.integer({ min: 50, max: 400 }))
      .map(([h, n]) => `${h} `.repeat(n)),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 200, unit: 'binary' }) },
);
