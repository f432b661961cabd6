/**
 * Finds the interactive element a user "clicks" in rendered blocks, so a driven
 * block_actions payload carries the real block_id, element type and label, as Slack's does.
 */
interface FoundElement {
  blockId: string | undefined;
  element: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function elementsOf(block: Json): unknown[] {
  const out: unknown[] = [];
  if (Array.isArray(block['elements'])) out.push(...block['elements']);
  if (block['accessory'] !== undefined) out.push(block['accessory']);
  if (block['element'] !== undefined) out.push(block['element']);
  return out;
}

export function findBlockElement(
  blocks: readonly unknown[] | undefined,
  actionId: string,
): FoundElement | undefined {
  for (const block of blocks ?? []) {
    if (!isObject(block)) continue;
    for (const el of elementsOf(block)) {
      if (isObject(el) && el['action_id'] === actionId) {
        return {
          blockId: typeof block['block_id'] === 'string' ? block['block_id'] : undefined,
          element: el,
        };
      }
    }
  }
  return undefined;
}

/** The option a select or overflow offers with this value (searching option groups too). */
export function findOption(element: Json, value: string): Json | undefined {
  const groups = Array.isArray(element['option_groups']) ? element['option_groups'] : [];
  const options = [
    ...(Array.isArray(element['options']) ? element['options'] : []),
    ...groups.flatMap((g) => (isObject(g) && Array.isArray(g['options']) ? g['options'] : [])),
  ];
  return options.find((o): o is Json => isObject(o) && o['value'] === value);
}
