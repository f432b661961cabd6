/** Reading `view.state.values` (block_id → action_id → element state) the way Slack fills it. */
import { isCountryCode } from '../../countries.js';
import { INPUT_ACTION_ID } from '../views/brand-form-modal.js';

type Values = Record<string, Record<string, unknown>>;

function state(values: Values, blockId: string): Record<string, unknown> | undefined {
  const v = values[blockId]?.[INPUT_ACTION_ID];
  return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
}

/** A text input's value, trimmed; '' when empty or absent. */
export function textValue(values: Values, blockId: string): string {
  const v = state(values, blockId)?.['value'];
  return typeof v === 'string' ? v.trim() : '';
}

/** A select's chosen option value, or undefined. */
export function selectedValue(values: Values, blockId: string): string | undefined {
  const option = state(values, blockId)?.['selected_option'] as { value?: unknown } | null | undefined;
  return typeof option?.value === 'string' ? option.value : undefined;
}

/** What is wrong with a country picked in a form (upper-cased code), or undefined. */
export function countryProblem(code: string | undefined): string | undefined {
  if (!code) return 'Pick a country.';
  if (!isCountryCode(code)) return `"${code}" is not a country code; pick one from the list.`;
  return undefined;
}
