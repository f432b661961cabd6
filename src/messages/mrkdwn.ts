/**
 * Text for Slack, escaped by construction. Slack reads `&`, `<` and `>` as control
 * characters in every text field (message `text`, which it uses for notifications, as well
 * as block text), so `<!channel>`, `<@U…>` or `<https://x|label>` inside a brand name or a
 * cited page's title would become a broadcast, a mention or a disguised link (Slack
 * "Formatting text for app surfaces", Escaping text).
 *
 * `Mrkdwn` is a string that is safe to send: only the helpers here produce one. Block
 * builders, replies and messages accept only `Mrkdwn`, so passing service or user text
 * unescaped is a type error, the way React escapes whatever is interpolated unless asked
 * not to. It serves plain_text fields too: Slack decodes the three entities there as well.
 */

import { dayCount, dayText, lagNote, middayOf, timeText } from '../figures/day-text.js';

declare const MRKDWN: unique symbol;

/** Text safe for any Slack text field: data escaped, markup only from the helpers below. */
export type Mrkdwn = string & { readonly [MRKDWN]: true };

/** What may be interpolated into `mrkdwn`: text already safe, or a number. */
type MrkdwnPart = Mrkdwn | number;

const trust = (text: string): Mrkdwn => text as Mrkdwn;

const NEEDS_ESCAPE = /[&<>]/;

/** Any string from the service, a web page or a user, as literal text. */
export function escapeMrkdwn(text: string | number): Mrkdwn {
  const s = String(text);
  // Most text has none of the three: one scan instead of three replace passes (an alert
  // run escapes every title, URL and name of some 15,000 alerts).
  if (!NEEDS_ESCAPE.test(s)) return trust(s);
  return trust(s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
}

/**
 * Trusted literal with safe parts: mrkdwn`*${escapeMrkdwn(name)}* has ${count} alerts`.
 * The literal parts are ours (source code); a raw string cannot be interpolated (type
 * error), and numbers are safe as they are.
 */
export function mrkdwn(literals: TemplateStringsArray, ...parts: readonly MrkdwnPart[]): Mrkdwn {
  let out = literals[0] ?? '';
  for (const [i, part] of parts.entries()) out += String(part) + (literals[i + 1] ?? '');
  return trust(out);
}

/** Without the whitespace around it: trimming escaped text keeps it escaped. */
export function trimMrkdwn(text: Mrkdwn): Mrkdwn {
  return trust(text.trim());
}

/** Safe parts joined by a safe separator (default none). */
export function joinMrkdwn(parts: readonly Mrkdwn[], separator: Mrkdwn = trust('')): Mrkdwn {
  return trust(parts.join(separator));
}

/**
 * A URL Slack may link to: http(s), parsable, and with no user name or password before
 * its host (`https://trusted.example@elsewhere.example` shows one place and opens
 * another). Anything else is shown as text.
 */
export function safeLinkUrl(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url.trim())) return undefined;
  try {
    const parsed = new URL(url.trim());
    if (parsed.username !== '' || parsed.password !== '') return undefined;
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `<url|label>` for a URL we validated (http/https, parsed with URL), the label escaped;
 * `|` in a label would end it early. Inside the URL `<`, `>`, `|` and spaces are
 * percent-encoded and `&` is written `&amp;`, as Slack reads entities in links too. A URL
 * that is not a web address comes out as the escaped label, never as a link.
 */
export function mrkdwnLink(url: string, label: string): Mrkdwn {
  const href = safeLinkUrl(url);
  const shown = escapeMrkdwn(label).replace(/\|/g, '¦');
  if (href === undefined) return trust(shown);
  const target = href.replace(/[<>|\s]/g, encodeURIComponent).replace(/&/g, '&amp;');
  return trust(`<${target}|${shown}>`);
}

/** Slack user (U…/W…), channel (C…/G…/D…) ids: upper-case letters and digits. */
const USER_ID = /^[UW][A-Z0-9]{1,30}$/;
const CHANNEL_ID = /^[CGD][A-Z0-9]{1,30}$/;

/** A mention the bot means to make (who acknowledged, who shared); a malformed id is not linked. */
export function userMention(userId: string): Mrkdwn {
  return USER_ID.test(userId) ? trust(`<@${userId}>`) : escapeMrkdwn('someone');
}

/** A channel the bot names (`<#C…>`); a malformed id is shown as text, never linked. */
export function channelMention(channelId: string): Mrkdwn {
  return CHANNEL_ID.test(channelId) ? trust(`<#${channelId}>`) : escapeMrkdwn(channelId);
}

/**
 * `<!date^…>`: a time every reader sees in their own zone ("Today at 8:33 PM"), falling
 * back to the one readable style, `Nov 27, 2026 at 8:33 PM UTC` (Slack "Formatting
 * dates"). Not a finite time → "unknown time".
 */
export function slackDate(ms: number, format = '{date_short_pretty} at {time}'): Mrkdwn {
  if (!Number.isFinite(ms)) return escapeMrkdwn('unknown time');
  const seconds = Math.floor(ms / 1000);
  const safeFormat = format.replace(/[<>|^&]/g, '');
  return trust(`<!date^${seconds}^${safeFormat}|${timeText(seconds * 1000)}>`);
}

/**
 * A calendar day of the API (`YYYY-MM-DD`, UTC) as a date token, "Nov 27, 2026" (Slack's
 * `{date_short}`), with the same words as its fallback. Not `{date_short_pretty}`: its
 * "Today" and "Yesterday" read wrong inside the sentences days sit in ("7 days to Today",
 * "64 on Yesterday"); moments keep it ("Today at 8:33 PM", `slackDate`). The token is
 * written for midday UTC, so the day reads the same from UTC−11 to UTC+11 instead of
 * turning into the day before west of Greenwich. Text that is not a date is shown
 * escaped, as it is.
 */
export function slackDay(date: string): Mrkdwn {
  const ms = middayOf(date);
  if (Number.isNaN(ms)) return escapeMrkdwn(date);
  return trust(`<!date^${Math.floor(ms / 1000)}^{date_short}|${dayText(date)}>`);
}

/**
 * A period with its real end: "7 days to Nov 27, 2026" (the end as a date token), and with
 * `todayMs`, data that ends more than a day before today says so (figures/day-text.ts).
 */
export function slackPeriod(days: number, end: string, todayMs?: number): Mrkdwn {
  return trust(`${escapeMrkdwn(dayCount(days))} to ${slackDay(end)}${escapeMrkdwn(lagNote(end, todayMs))}`);
}
