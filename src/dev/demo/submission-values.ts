/**
 * `:submit field=value …` as a view_submission's `state.values`, shaped per element type
 * like Slack's (https://docs.slack.dev/reference/interaction-payloads/view-interactions-payload).
 * Every input is sent, as Slack does: the value given, else its initial value, else empty.
 * A field is named by the start of its label (form-inputs.ts: `time`, `"quiet hours end"`),
 * or by its ids; a select takes an option's label, the start of one (a time zone's city:
 * `Berlin` for "Berlin (Europe)"), its number in the form or its value, and names the
 * closest options when none fits; multi-selects take a comma list.
 * A type-ahead (external) select has no options in the form: the bot serves them as the
 * person types (a block_suggestion), so the value given is what they would type, and the
 * option picked is the one whose label or value it is, or the only one suggested for it.
 */
import { closestMatches } from '../../closest-matches.js';
import { type Json, list, rec, str } from './render/block-json.js';
import {
  type FormInput,
  fieldKey,
  fieldNames,
  inputNamed,
  inputsStartingWith,
} from './render/form-inputs.js';
import type { ElementOption } from './render/select-options.js';

type StateValues = Record<string, Record<string, unknown>>;

const TEXT_TYPES = new Set(['plain_text_input', 'number_input', 'email_text_input', 'url_text_input']);
const SINGLE_OPTION = new Set(['static_select', 'external_select', 'radio_buttons']);
const MULTI_OPTION = new Set(['multi_static_select', 'multi_external_select', 'checkboxes']);
const PICKERS: Record<string, string> = {
  users_select: 'selected_user',
  conversations_select: 'selected_conversation',
  channels_select: 'selected_channel',
  datepicker: 'selected_date',
  timepicker: 'selected_time',
};
const MULTI_PICKERS: Record<string, string> = {
  multi_users_select: 'selected_users',
  multi_conversations_select: 'selected_conversations',
  multi_channels_select: 'selected_channels',
};

/**
 * What the bot suggests for `typed` in the type-ahead select `actionId` of the open form
 * (run-submit.ts asks the service through the local Slack).
 */
export type SuggestOptions = (actionId: string, typed: string) => Promise<ElementOption[]>;

const EXTERNAL = new Set(['external_select', 'multi_external_select']);

const optionJson = (o: ElementOption) => ({
  text: { type: 'plain_text', text: o.label, emoji: true },
  value: o.value,
});

/** "a", "a or b", "a, b or c". */
const orList = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;

/** A label without its trailing "(…)": "Berlin (Europe)" → "berlin". */
const bareLabel = (label: string) =>
  label
    .replace(/\s*\([^)]*\)\s*$/, '')
    .trim()
    .toLowerCase();

function findOption(input: FormInput, given: string): ElementOption | undefined {
  const g = given.trim();
  const lower = g.toLowerCase();
  const byValue = input.options.find((o) => o.value === g);
  if (byValue) return byValue;
  const numbered = /^\(?(\d+)\)?$/.exec(g);
  if (numbered) {
    const byNumber = input.options[Number(numbered[1]) - 1];
    if (byNumber) return byNumber;
  }
  const byLabel =
    input.options.find((o) => o.label.toLowerCase() === lower) ??
    input.options.find((o) => o.value.toLowerCase() === lower);
  if (byLabel) return byLabel;
  // "Buenos Aires" for "Argentina / Buenos Aires (America)": the last part names it too.
  const bare = input.options.filter(
    (o) => bareLabel(o.label) === lower || bareLabel(o.label).split(' / ').at(-1) === lower,
  );
  if (bare.length === 1) return bare[0];
  const starting = input.options.filter((o) => lower !== '' && o.label.toLowerCase().startsWith(lower));
  return starting.length === 1 ? starting[0] : undefined;
}

/** `"Berlim" is not an option of Time zone. Did you mean "Berlin (Europe)"?` */
function notAnOption(input: FormInput, given: string): string {
  const close = closestMatches(
    given.trim(),
    input.options.map((o) => bareLabel(o.label)),
    { max: 3 },
  ).flatMap((bare) => input.options.filter((o) => bareLabel(o.label) === bare).slice(0, 1));
  const hint = close.length > 0 ? ` Did you mean ${orList(close.map((o) => `"${o.label}"`))}?` : '';
  return `"${given.trim()}" is not an option of ${input.label}.${hint}`;
}

const MAX_NAMED = 5;

/** The suggestion `typed` picks, as a person typing it would: an exact one, else the only one. */
async function suggestedOption(
  input: FormInput,
  typed: string,
  suggest: SuggestOptions,
  problems: string[],
): Promise<ElementOption | undefined> {
  const t = typed.trim();
  // "(3)": the third option of the list the menu shows as it opens, before anything is typed.
  const numbered = /^\(?(\d+)\)?$/.exec(t);
  if (numbered) {
    const opening = await suggest(input.actionId, '');
    const option = opening[Number(numbered[1]) - 1];
    if (option) return option;
  }
  const options = await suggest(input.actionId, t);
  const exact =
    options.find((o) => o.value === t) ?? options.find((o) => o.label.toLowerCase() === t.toLowerCase());
  if (exact) return exact;
  if (options.length === 1) return options[0];
  if (options.length === 0) {
    problems.push(`${input.label} suggests nothing for "${t}".`);
    return undefined;
  }
  const named = options.slice(0, MAX_NAMED).map((o) => `"${o.label}"`);
  const more = options.length > MAX_NAMED ? ` and ${options.length - MAX_NAMED} more` : '';
  problems.push(
    `"${t}" matches ${options.length} options of ${input.label}: ${named.join(', ')}${more}. Type one in full.`,
  );
  return undefined;
}

/** The chosen options of a type-ahead select, or a problem when it cannot be typed into. */
async function externalState(
  input: FormInput,
  given: string,
  suggest: SuggestOptions | undefined,
  problems: string[],
): Promise<Json> {
  const multi = input.type === 'multi_external_select';
  if (!suggest) {
    problems.push(`${input.label} is a type-ahead select, and nothing here can ask the bot for its options.`);
    return multi ? { type: input.type, selected_options: [] } : { type: input.type, selected_option: null };
  }
  const parts = multi ? given.split(',').filter((p) => p.trim() !== '') : [given];
  const chosen: ElementOption[] = [];
  for (const part of parts) {
    const option = await suggestedOption(input, part, suggest, problems);
    if (option) chosen.push(option);
  }
  return multi
    ? { type: input.type, selected_options: chosen.map(optionJson) }
    : { type: input.type, selected_option: chosen[0] ? optionJson(chosen[0]) : null };
}

/** The state of one input: from `given` when set, else its initial value. */
function elementState(input: FormInput, given: string | undefined, problems: string[]): Json {
  const { type, element: e } = input;
  const state: Json = { type };
  if (TEXT_TYPES.has(type)) {
    state['value'] = given ?? str(e['initial_value']) ?? null;
  } else if (SINGLE_OPTION.has(type)) {
    if (given === undefined) state['selected_option'] = rec(e['initial_option']) ?? null;
    else {
      const option = findOption(input, given);
      if (!option) problems.push(notAnOption(input, given));
      state['selected_option'] = option ? optionJson(option) : null;
    }
  } else if (MULTI_OPTION.has(type)) {
    if (given === undefined) state['selected_options'] = list(e['initial_options']);
    else {
      const parts = given.split(',').filter((p) => p.trim() !== '');
      state['selected_options'] = parts.flatMap((p) => {
        const option = findOption(input, p);
        if (!option) problems.push(notAnOption(input, p));
        return option ? [optionJson(option)] : [];
      });
    }
  } else if (PICKERS[type]) {
    const initial = `initial_${PICKERS[type]!.replace('selected_', '')}`;
    state[PICKERS[type]!] = given ?? str(e[initial]) ?? null;
  } else if (MULTI_PICKERS[type]) {
    const initial = `initial_${MULTI_PICKERS[type]!.replace('selected_', '')}`;
    state[MULTI_PICKERS[type]!] =
      given !== undefined ? given.split(',').map((s) => s.trim()) : list(e[initial]);
  } else if (type === 'datetimepicker') {
    state['selected_date_time'] = given !== undefined ? Number(given) : (e['initial_date_time'] ?? null);
  } else {
    state['value'] = given ?? null;
  }
  return state;
}

/** The fields as the console names them: `citation, sentiment, "ai crawler", …`. */
function named(inputs: readonly FormInput[]): string {
  return [...fieldNames(inputs).values()].map(fieldKey).join(', ');
}

function example(inputs: readonly FormInput[]): string {
  const first = inputs[0];
  return first ? `${fieldKey(fieldNames(inputs).get(first)!)}=…` : 'name=…';
}

export async function submissionValues(
  inputs: readonly FormInput[],
  assignments: readonly string[],
  suggest?: SuggestOptions,
): Promise<{ values: StateValues; problems: string[] }> {
  const problems: string[] = [];
  const given = new Map<FormInput, string>();
  for (const a of assignments) {
    const eq = a.indexOf('=');
    if (eq <= 0) {
      problems.push(`"${a}" is not field=value (a field by its label, e.g. ${example(inputs)}).`);
      continue;
    }
    const key = a.slice(0, eq);
    const input = inputNamed(inputs, key);
    if (input) {
      given.set(input, a.slice(eq + 1));
      continue;
    }
    const several = inputsStartingWith(inputs, key);
    const names = fieldNames(inputs);
    problems.push(
      several.length > 1
        ? `"${key}" could be ${orList(several.map((i) => fieldKey(names.get(i)!)))}: say which.`
        : `The form has no field "${key}"; its fields: ${named(inputs)}.`,
    );
  }
  const values: StateValues = {};
  for (const input of inputs) {
    const typed = given.get(input);
    const state =
      typed !== undefined && EXTERNAL.has(input.type)
        ? await externalState(input, typed, suggest, problems)
        : elementState(input, typed, problems);
    values[input.blockId] = { ...values[input.blockId], [input.actionId]: state };
  }
  return { values, problems };
}
