/**
 * Buttons that act on one brand: the value is JSON `{brandId, …}` (what the `vis:` action
 * handlers parse), labels and values fitted to Slack's limits by construction.
 */
import { BLOCK_KIT_LIMITS as L } from '../../messages/block-kit-limit-table.js';
import type { Button } from '../../messages/block-kit-types.js';
import type { Mrkdwn } from '../../messages/mrkdwn.js';
import { truncatePlain } from '../../messages/truncate-mrkdwn.js';

interface ConfirmDialog {
  title: Mrkdwn;
  text: Mrkdwn;
  confirm: Mrkdwn;
  deny: Mrkdwn;
}

export function brandButton(
  label: Mrkdwn,
  actionId: string,
  value: { brandId: string } & Record<string, string>,
  options: { style?: 'primary' | 'danger'; confirm?: ConfirmDialog } = {},
): Button {
  const { style, confirm } = options;
  return {
    type: 'button',
    action_id: actionId,
    text: { type: 'plain_text', text: truncatePlain(label, L.buttonText), emoji: true },
    value: JSON.stringify(value),
    ...(style ? { style } : {}),
    ...(confirm
      ? {
          confirm: {
            title: { type: 'plain_text', text: truncatePlain(confirm.title, L.confirmTitle) },
            text: { type: 'mrkdwn', text: confirm.text },
            confirm: { type: 'plain_text', text: truncatePlain(confirm.confirm, L.confirmButton) },
            deny: { type: 'plain_text', text: truncatePlain(confirm.deny, L.confirmButton) },
            ...(style === 'danger' ? { style: 'danger' as const } : {}),
          },
        }
      : {}),
  };
}
