/** rich_text blocks (https://docs.slack.dev/reference/block-kit/blocks/rich-text-block), simply. */

import { emojiSymbol } from '../../../terminal/emoji-symbols.js';
import type { Style } from '../../../terminal/style.js';
import { type Json, list, rec, str } from './block-json.js';

function inline(element: Json, style: Style): string {
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
    case 'user':
      return style.bold(`@${str(element['user_id']) ?? ''}`);
    case 'channel':
      return style.bold(`#${str(element['channel_id']) ?? ''}`);
    case 'broadcast':
      return style.bold(`@${str(element['range']) ?? 'here'}`);
    case 'date':
      return str(element['fallback']) ?? '';
    default:
      return '';
  }
}

const sectionText = (section: Json, style: Style) =>
  list(section['elements'])
    .map((e) => inline(rec(e) ?? {}, style))
    .join('');

export function renderRichText(block: Json, style: Style): string[] {
  const lines: string[] = [];
  for (const part of list(block['elements']).map(rec)) {
    if (!part) continue;
    const text = sectionText(part, style);
    switch (part['type']) {
      case 'rich_text_list': {
        const indent = '  '.repeat(Number(part['indent'] ?? 0));
        list(part['elements']).forEach((item, i) => {
          const bullet = part['style'] === 'ordered' ? `${i + 1}.` : '•';
          lines.push(`${indent}${bullet} ${sectionText(rec(item) ?? {}, style)}`);
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
