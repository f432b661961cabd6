/**
 * Splits the text after `/visibility` into positional arguments and `--flags`, the way a
 * marketing person types it in Slack rather than a shell: quotes group words
 * ("Acme Analytics", 'x'), Slack's smart quotes count as quotes, an em dash typed by
 * autocorrect for `--` still starts a flag, and an apostrophe inside a word (O'Reilly)
 * is just an apostrophe.
 */
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
export interface ParsedCommand {
  positional: string[];
  flags: Record<string, string | true>;
  /**
   * Each positional argument as typed, quotes included (`"Initech, Inc.",`): for the few
   * arguments whose own syntax needs the quotes, such as comma-separated alias lists.
   * Absent when the arguments did not come from typed text.
   */
  raw?: string[];
}

export interface ParseError {
  error: Mrkdwn;
}

interface ParseOptions {
  /** Flags that never take a value, so `--compare Acme` leaves "Acme" positional. */
  booleanFlags?: ReadonlySet<string>;
}

export const DEFAULT_BOOLEAN_FLAGS: ReadonlySet<string> = new Set(['compare', 'share', 'all']);

export function isParseError(r: ParsedCommand | ParseError): r is ParseError {
  return 'error' in r;
}

/** Slack escapes &, < and > in command text; smart quotes and dashes come from autocorrect. */
function normalise(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
    .replace(/(^|\s)[\u2014\u2013](?=\S)/g, '$1--')
    .replace(/\u00A0/g, ' ');
}

interface Token {
  value: string;
  /** the token as typed */
  raw: string;
  /** a quoted token is never a flag, even if it starts with -- */
  quoted: boolean;
}

function tokenize(text: string): Token[] | ParseError {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i += 1;
    if (i >= text.length) break;
    const start = i;
    let value = '';
    let quoted = false;
    while (i < text.length && !/\s/.test(text[i]!)) {
      const ch = text[i]!;
      // A quote opens only at the start of a token or right after `--flag=`.
      if ((ch === '"' || ch === "'") && (value === '' || /^--[^=\s]+=$/.test(value))) {
        const close = text.indexOf(ch, i + 1);
        if (close === -1)
          return {
            error: mrkdwn`The quote ${escapeMrkdwn(ch)} is never closed: add a closing ${escapeMrkdwn(ch)}.`,
          };
        if (value === '') quoted = true;
        value += text.slice(i + 1, close);
        i = close + 1;
      } else {
        value += ch;
        i += 1;
      }
    }
    tokens.push({ value, raw: text.slice(start, i), quoted });
  }
  return tokens;
}

export function parseCommandText(text: string, options: ParseOptions = {}): ParsedCommand | ParseError {
  const tokens = tokenize(normalise(text));
  if (!Array.isArray(tokens)) return tokens;
  const booleans = options.booleanFlags ?? DEFAULT_BOOLEAN_FLAGS;
  const positional: string[] = [];
  const raw: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < tokens.length; i += 1) {
    const { value, quoted } = tokens[i]!;
    if (quoted || !value.startsWith('--') || value === '--') {
      positional.push(value);
      raw.push(tokens[i]!.raw);
      continue;
    }
    const eq = value.indexOf('=');
    const name = (eq === -1 ? value.slice(2) : value.slice(2, eq)).toLowerCase();
    if (name === '')
      return { error: mrkdwn`"${escapeMrkdwn(value)}" is not a flag: write --name or --name=value.` };
    if (eq !== -1) {
      flags[name] = value.slice(eq + 1);
      continue;
    }
    const next = tokens[i + 1];
    if (!booleans.has(name) && next && (next.quoted || !next.value.startsWith('--'))) {
      flags[name] = next.value;
      i += 1;
    } else {
      flags[name] = true;
    }
  }
  return { positional, flags, raw };
}
