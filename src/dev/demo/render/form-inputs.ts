/** The input blocks of a modal: what the form shows and what `:submit` fills in. */
import { type Json, list, plainOf, rec, str } from './block-json.js';
import { type ElementOption, selectOptions } from './select-options.js';

export interface FormInput {
  blockId: string;
  actionId: string;
  label: string;
  /** Element type, e.g. `plain_text_input`, `static_select`. */
  type: string;
  optional: boolean;
  element: Json;
  /** Options of selects, radio buttons and checkboxes (empty otherwise). */
  options: ElementOption[];
  hint: string;
}

export function formInputs(blocks: readonly unknown[]): FormInput[] {
  return blocks.flatMap((raw) => {
    const block = rec(raw);
    const element = rec(block?.['element']);
    if (block?.['type'] !== 'input' || !element) return [];
    return [
      {
        blockId: str(block['block_id']) ?? '',
        actionId: str(element['action_id']) ?? '',
        label: plainOf(block['label']),
        type: str(element['type']) ?? 'unknown',
        optional: block['optional'] === true,
        element,
        options: selectOptions(element),
        hint: plainOf(block['hint']),
      },
    ];
  });
}

/** The initial value an input shows, as text (undefined when empty). */
export function initialText(input: FormInput): string | undefined {
  const e = input.element;
  const option = rec(e['initial_option']);
  if (option) return plainOf(option['text']) || str(option['value']);
  const options = list(e['initial_options']).map((o) => plainOf(rec(o)?.['text']));
  if (options.length) return options.join(', ');
  for (const key of [
    'initial_value',
    'initial_date',
    'initial_time',
    'initial_user',
    'initial_conversation',
    'initial_channel',
  ]) {
    const v = str(e[key]);
    if (v) return v;
  }
  for (const key of ['initial_users', 'initial_conversations', 'initial_channels']) {
    const v = list(e[key]).filter((x) => typeof x === 'string');
    if (v.length) return v.join(', ');
  }
  return typeof e['initial_date_time'] === 'number' ? String(e['initial_date_time']) : undefined;
}
