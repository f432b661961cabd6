/**
 * Slack mrkdwn (https://docs.slack.dev/messaging/formatting-message-text) as terminal text:
 * *bold*, _italic_, ~strike~, `code` and ``` blocks, `<url|label>` as "label (url)" (on a
 * colour terminal, the label as a hyperlink),
 * emoji codes as symbols, &lt; &gt; &amp; decoded. Mentions and dates read as Slack shows
 * them: `<@U…>` as @name and `<#C…>` as #channel when `tokens` knows them, `<!here>` as
 * @here, `<!date^…>` formatted in the reader's zone (else their label or fallback text).
 * Code and links are set aside first so nothing inside them is taken for formatting.
 */
import { emojiSymbol } from './emoji-symbols.js';
import { formatSlackDate } from './format-slack-date.js';
import type { Style } from './style.js';
import type { TokenContext } from './token-context.js';

const decode = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** `<!date^seconds^format[^link]|fallback>`: the formatted date (a link after it), else the fallback. */
function date(target: string, label: string | undefined, tokens: TokenContext | undefined): string {
  const [, seconds = '', format = '', link] = target.split('^');
  const formatted =
    tokens && /^-?\d+$/.test(seconds)
      ? formatSlackDate(Number(seconds), decode(format), { timeZone: tokens.timeZone, nowMs: tokens.now() })
      : undefined;
  const text = formatted ?? label ?? target;
  return link ? `${text} (${decode(link)})` : text;
}

/** `<…>`: links, channel and user mentions, special mentions, dates. */
function angle(inner: string, style: Style, tokens: TokenContext | undefined): string {
  const bar = inner.indexOf('|');
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : decode(inner.slice(bar + 1));
  if (target.startsWith('#')) {
    const name = tokens?.channelName(target.slice(1));
    return style.bold(`#${name ?? label ?? target.slice(1)}`);
  }
  if (target.startsWith('@')) {
    const name = tokens?.userName(target.slice(1));
    return style.bold(`@${name ?? label?.replace(/^@/, '') ?? target.slice(1)}`);
  }
  if (target.startsWith('!date^')) return date(target, label, tokens);
  if (target.startsWith('!subteam^')) return style.bold(label ?? '@team');
  if (target.startsWith('!')) return style.bold(`@${target.slice(1)}`);
  const url = decode(target);
  if (!label || label === url || `mailto:${label}` === url) return style.link(url);
  // A colour terminal links the label, as Slack does; plain output must spell the address out.
  return style.color ? style.link(label, url) : `${style.link(label)} (${url})`;
}

export function mrkdwnToTerminal(text: string, style: Style, tokens?: TokenContext): string {
  const held: string[] = [];
  const hold = (s: string) => `\uE000${held.push(s) - 1}\uE001`;
  let out = text
    .replace(/```\n?([\s\S]*?)\n?```/g, (_m, code: string) =>
      hold(
        decode(code)
          .split('\n')
          .map((line) => `    ${style.pre(line)}`)
          .join('\n'),
      ),
    )
    .replace(/`([^`\n]+)`/g, (_m, code: string) => hold(style.code(decode(code))))
    .replace(/<([^<>\n]+)>/g, (_m, inner: string) => hold(angle(inner, style, tokens)))
    .replace(/^&gt;\s?/gm, () => hold(style.dim('│ ')));
  out = out
    .replace(/(?<!\w):([a-z0-9_+'-]+):(?!\w)/g, (_m, name: string) => emojiSymbol(name))
    .replace(
      /(^|[^\w_])_(?!\s)([^_\n]+?)(?<!\s)_(?![\w_])/g,
      (_m, pre: string, s: string) => pre + style.italic(s),
    )
    .replace(
      /(^|[^\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\w*])/g,
      (_m, pre: string, s: string) => pre + style.bold(s),
    )
    .replace(
      /(^|[^\w~])~(?!\s)([^~\n]+?)(?<!\s)~(?![\w~])/g,
      (_m, pre: string, s: string) => pre + style.strike(s),
    );
  return decode(out).replace(/\uE000(\d+)\uE001/g, (_m, i: string) => held[Number(i)] ?? '');
}

/** plain_text objects: emoji codes only (`emoji: true` is Slack's default). */
export function plainToTerminal(text: string): string {
  return text.replace(/(?<!\w):([a-z0-9_+'-]+):(?!\w)/g, (_m, name: string) => emojiSymbol(name));
}
