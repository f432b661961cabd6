/**
 * Slack mrkdwn (https://docs.slack.dev/messaging/formatting-message-text) as terminal text:
 * *bold*, _italic_, ~strike~, `code` and ``` blocks, `<url|label>` as "label (url)",
 * mentions and dates by their readable part, emoji codes as symbols, &lt; &gt; &amp; decoded.
 * Code and links are set aside first so nothing inside them is taken for formatting.
 */
import { emojiSymbol } from './emoji-symbols.js';
import type { Style } from './style.js';

const decode = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** `<…>`: links, channel and user mentions, special mentions, dates. */
function angle(inner: string, style: Style): string {
  const bar = inner.indexOf('|');
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : decode(inner.slice(bar + 1));
  if (target.startsWith('#')) return style.bold(`#${label ?? target.slice(1)}`);
  if (target.startsWith('@')) return style.bold(`@${label?.replace(/^@/, '') ?? target.slice(1)}`);
  if (target.startsWith('!date^')) return label ?? target;
  if (target.startsWith('!subteam^')) return style.bold(label ?? '@team');
  if (target.startsWith('!')) return style.bold(`@${target.slice(1)}`);
  const url = decode(target);
  if (!label || label === url || `mailto:${label}` === url) return style.link(url);
  return `${style.link(label)} (${url})`;
}

export function mrkdwnToTerminal(text: string, style: Style): string {
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
    .replace(/<([^<>\n]+)>/g, (_m, inner: string) => hold(angle(inner, style)))
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
