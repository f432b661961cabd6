/** rich_text blocks (https://docs.slack.dev/reference/block-kit/blocks/rich-text-block), simply. */

import { emojiSymbol } from '../../../terminal/emoji-symbols.js';
import { formatSlackDate } from '../../../terminal/format-slack-date.js';
import type { Style } from '../../../terminal/style.js';
import type { TokenContext } from '../../../terminal/token-context.js';
import { type Json, list, rec, str } from './block-json.js';

function inline(element: Json, style: Style, tokens: TokenContext | undefined): string {
  const s = rec(element['style']);
  switch (element['type']) {
    case 'text': {
      let t = str(element['text']) ?? '';
      if (s?.['code']) t = style.code(t);
      if (s?.['bold']) t = style.bold(t);
      if (s?.['italic']) t = style.italic(t);
      if (s?.['strike']) t = style.strike(t);
      return t;
    }
    case 'link': {
      const url = str(element['url']) ?? '';
      const text = str(element['text']);
      return text && text !== url ? `${style.link(text)} (${url})` : style.link(url);
    }
    case 'emoji':
      return emojiSymbol(str(element['name']) ?? '');
    case 'user': {
      const id = str(element['user_id']) ?? '';
      return style.bold(`@${tokens?.userName(id) ?? id}`);
    }
    case 'channel': {
      const id = str(element['channel_id']) ?? '';
      return style.bold(`#${tokens?.channelName(id) ?? id}`);
    }
    case 'broadcast':
      return style.bold(`@${str(element['range']) ?? 'here'}`);
    case 'date':
      return richDate(element, tokens);
    default:
      return '';
  }
}

/** A `date` element: formatted in its own zone or the reader's, else its fallback. */
function richDate(element: Json, tokens: TokenContext | undefined): string {
  const seconds = element['timestamp'];
  const format = str(element['format']);
  const formatted =
    tokens && typeof seconds === 'number' && format
      ? formatSlackDate(seconds, format, {
          timeZone: str(element['timezone']) ?? tokens.timeZone,
          nowMs: tokens.now(),
        })
      : undefined;
  const text = formatted ?? str(element['fallback']) ?? '';
  const url = str(element['url']);
  return url ? `${text} (${url})` : text;
}

const sectionText = (section: Json, style: Style, tokens: TokenContext | undefined) =>
  list(section['elements'])
    .map((e) => inline(rec(e) ?? {}, style, tokens))
    .join('');

export function renderRichText(block: Json, style: Style, tokens?: TokenContext): string[] {
  const lines: string[] = [];
  for (const part of list(block['elements']).map(rec)) {
    if (!part) continue;
    const text = sectionText(part, style, tokens);
    switch (part['type']) {
      case 'rich_text_list': {
        const indent = '  '.repeat(Number(part['indent'] ?? 0));
        list(part['elements']).forEach((item, i) => {
          const bullet = part['style'] === 'ordered' ? `${i + 1}.` : '•';
          lines.push(`${indent}${bullet} ${sectionText(rec(item) ?? {}, style, tokens)}`);
        });
        break;
      }
      case 'rich_text_preformatted':
        lines.push(...text.split('\n').map((l) => `    ${style.pre(l)}`));
        break;
      case 'rich_text_quote':
        lines.push(...text.split('\n').map((l) => `${style.dim('│')} ${l}`));
        break;
      default:
        lines.push(...text.split('\n'));
    }
  }
  return lines;
}
