/**
 * The `actions[0]` of a driven block_actions payload, shaped like Slack's: the element's real
 * block_id, type and label come from the rendered blocks
 * (https://docs.slack.dev/reference/interaction-payloads/block_actions-payload).
 */
import { findBlockElement, findOption } from './find-block-element.js';
import type { BlockActionOptions } from './types.js';
import type { Workspace } from './workspace.js';

export function buildAction(
  ws: Workspace,
  o: BlockActionOptions,
  blocks: readonly unknown[] | undefined,
  where: 'message' | 'view',
): Record<string, unknown> {
  const found = findBlockElement(blocks, o.actionId);
  // A user can only click what is rendered: fail loudly instead of testing a phantom button.
  if (blocks !== undefined && !found) {
    throw new Error(`local Slack: no element with action_id "${o.actionId}" in the ${where}`);
  }
  const element = found?.element;
  const type =
    typeof element?.['type'] === 'string' ? element['type'] : o.selectedOption ? 'static_select' : 'button';
  const action: Record<string, unknown> = {
    type,
    action_id: o.actionId,
    block_id: o.blockId ?? found?.blockId ?? ws.nextId('b'),
    action_ts: ws.nextTs(),
  };
  if (type === 'button') {
    action['text'] = element?.['text'] ?? { type: 'plain_text', text: o.actionId, emoji: true };
    const value = o.value ?? element?.['value'];
    if (value !== undefined) action['value'] = value;
    if (element?.['style'] !== undefined) action['style'] = element['style'];
  } else if (type === 'users_select') {
    action['selected_user'] = o.selectedUser ?? null;
  } else if (o.selectedOption !== undefined) {
    const option = element ? findOption(element, o.selectedOption) : undefined;
    action['selected_option'] = option ?? {
      text: { type: 'plain_text', text: o.selectedOption, emoji: true },
      value: o.selectedOption,
    };
  } else if (o.value !== undefined) {
    action['value'] = o.value;
  }
  return action;
}
