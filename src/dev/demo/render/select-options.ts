/** The options of a select, radio group, checkbox group or overflow menu, groups flattened. */
import { type Json, list, plainOf, rec, str } from './block-json.js';

export interface ElementOption {
  label: string;
  value: string;
}

export function selectOptions(element: Json): ElementOption[] {
  const grouped = list(element['option_groups']).flatMap((g) => list(rec(g)?.['options']));
  return [...list(element['options']), ...grouped].flatMap((o) => {
    const option = rec(o);
    const value = str(option?.['value']);
    return value === undefined ? [] : [{ label: plainOf(option?.['text']), value }];
  });
}
