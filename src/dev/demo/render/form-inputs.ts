/**
 * The input blocks of a modal: what the form shows and what `:submit` fills in. A person
 * names a field by its label, as Slack shows it, never by its block_id or action_id: the
 * console calls each field by the first words of its label that tell it from the others
 * ("time zone" → `time`, "Quiet hours start" → `"quiet hours start"`), and `:submit` takes
 * any start of a label, or the ids for those who know them.
 */
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

/** A label's words, lower case, punctuation dropped: "Sentiment drop (points)" → sentiment, drop, points. */
function labelWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

const startsWith = (words: readonly string[], start: readonly string[]) =>
  start.length > 0 && start.length <= words.length && start.every((w, i) => words[i] === w);

/**
 * What the console calls each input: the fewest first words of its label that no other
 * label starts with, its whole label when another label is that label and more, and its
 * block_id when two labels are the same.
 */
export function fieldNames(inputs: readonly FormInput[]): Map<FormInput, string> {
  const words = inputs.map((i) => labelWords(i.label));
  return new Map(
    inputs.map((input, n) => {
      const own = words[n]!;
      const others = words.filter((_, m) => m !== n);
      for (let k = 1; k <= own.length; k += 1) {
        const start = own.slice(0, k);
        if (!others.some((w) => startsWith(w, start))) return [input, start.join(' ')];
      }
      const same = others.some((w) => w.join(' ') === own.join(' '));
      return [input, same || own.length === 0 ? input.blockId : own.join(' ')];
    }),
  );
}

/** A field's name as typed after `:submit`: quoted when it has a space. */
export function fieldKey(name: string): string {
  return /\s/.test(name) ? `"${name}"` : name;
}

/** The inputs whose label starts with the words of `key` (any case, punctuation ignored). */
export function inputsStartingWith(inputs: readonly FormInput[], key: string): FormInput[] {
  const typed = labelWords(key);
  return inputs.filter((i) => startsWith(labelWords(i.label), typed));
}

/**
 * The input `key` names: a field name or any start of one label only (in any case), else
 * its `block_id.action_id`, block_id or action_id when one input has it.
 */
export function inputNamed(inputs: readonly FormInput[], key: string): FormInput | undefined {
  const typed = labelWords(key);
  const byLabel = inputs.filter((i) => startsWith(labelWords(i.label), typed));
  const exact = byLabel.filter((i) => labelWords(i.label).length === typed.length);
  if (exact.length === 1) return exact[0];
  if (byLabel.length === 1) return byLabel[0];
  const names = fieldNames(inputs);
  const named = inputs.filter((i) => names.get(i) === key.toLowerCase());
  if (named.length === 1) return named[0];
  const full = inputs.find((i) => `${i.blockId}.${i.actionId}` === key);
  if (full) return full;
  const short = inputs.filter((i) => i.blockId === key || i.actionId === key);
  return short.length === 1 ? short[0] : undefined;
}
