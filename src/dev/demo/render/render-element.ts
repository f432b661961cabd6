/**
 * One interactive element of a message, Home tab or modal (outside input blocks), inline:
 * buttons as `[N] Label`, message selects and overflow menus as one `[N]` per option, so
 * every choice is a `:click`. Pickers the console cannot offer (users, channels, external
 * data) are shown for what they are.
 */

import { mrkdwnToTerminal } from '../../../terminal/mrkdwn-to-terminal.js';
import type { Style } from '../../../terminal/style.js';
import type { TokenContext } from '../../../terminal/token-context.js';
import { decodeEntities, type Json, plainOf, rec, str, textObject } from './block-json.js';
import type { ConfirmDialog, RenderContext } from './render-context.js';
import { selectOptions } from './select-options.js';

function confirmOf(element: Json, style: Style, tokens: TokenContext | undefined): ConfirmDialog | undefined {
  const c = rec(element['confirm']);
  if (!c) return undefined;
  const text = textObject(c['text']);
  return {
    title: plainOf(c['title']) || 'Are you sure?',
    text: text?.mrkdwn ? mrkdwnToTerminal(text.text, style, tokens) : (text?.text ?? ''),
    confirm: plainOf(c['confirm']) || 'Yes',
    deny: plainOf(c['deny']) || 'Cancel',
  };
}

const CHOICE_TYPES = new Set(['static_select', 'overflow', 'radio_buttons', 'checkboxes']);

export function renderElement(element: unknown, blockId: string | undefined, ctx: RenderContext): string {
  const el = rec(element);
  const type = str(el?.['type']) ?? 'unknown';
  if (!el) return '';
  const { style } = ctx;
  const actionId = str(el['action_id']) ?? '';
  const confirm = confirmOf(el, style, ctx.tokens);
  if (type === 'button') {
    const label = plainOf(el['text']);
    const url = str(el['url']);
    const tag = ctx.add({
      label,
      actionId,
      blockId,
      value: str(el['value']),
      selectedOption: undefined,
      url,
      confirm,
    });
    const painted =
      el['style'] === 'primary' ? style.good(label) : el['style'] === 'danger' ? style.bad(label) : label;
    return `${style.bold(tag)} ${painted}${url ? style.dim(` ↗ ${url}`) : ''}${confirm ? style.dim(' (asks to confirm)') : ''}`;
  }
  if (CHOICE_TYPES.has(type)) {
    const name = plainOf(el['placeholder']) || (type === 'overflow' ? '⋯' : 'Choose');
    const options = selectOptions(el).map((o) => {
      const tag = ctx.add({
        label: `${name} ▸ ${o.label}`,
        actionId,
        blockId,
        value: undefined,
        selectedOption: o.value,
        url: undefined,
        confirm,
      });
      return `${style.bold(tag)} ${o.label}`;
    });
    return `${name}: ${options.join('  ')}`;
  }
  if (type === 'image') return style.dim(`[image: ${str(el['alt_text']) ?? ''}]`);
  if (type === 'mrkdwn') return mrkdwnToTerminal(str(el['text']) ?? '', style, ctx.tokens);
  if (type === 'plain_text') return decodeEntities(str(el['text']) ?? '');
  const placeholder = plainOf(el['placeholder']);
  return style.dim(`[${type.replace(/_/g, ' ')}${placeholder ? `: ${placeholder}` : ''}]`);
}
