/** The "Edit aliases" modal: the whole list in one multiline input, one per line or comma-separated. */
import type { Brand } from '../../../api/schemas/index.js';
import type { ModalView } from '../../../messages/block-kit-types.js';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { brandFormModal, INPUT_ACTION_ID, introSection } from '../../views/brand-form-modal.js';
import type { BrandModalMetadata } from '../../views/brand-modal-metadata.js';
import { brandName } from '../../views/brand-name.js';

export const ALIASES_CALLBACK_ID = 'vis:aliases:set';
export const ALIASES_BLOCK_ID = 'aliases';
/** Slack's plain_text_input holds at most 3000 characters. */
const ALIASES_INPUT_MAX = 3000;

export function aliasesModal(
  brand: Pick<Brand, 'id' | 'name'>,
  aliases: readonly string[],
  where: Omit<BrandModalMetadata, 'brandId'>,
): ModalView {
  // A name with a comma goes in quotes, or saving the form unchanged would split it.
  const initial = aliases.map((a) => (/[,\n]/.test(a) ? `"${a}"` : a)).join('\n');
  if (initial.length > ALIASES_INPUT_MAX) {
    // Saving a cut list would delete the aliases that did not fit: no form at all then.
    return {
      type: 'modal',
      title: { type: 'plain_text', text: mrkdwn`Edit aliases` },
      close: { type: 'plain_text', text: mrkdwn`Close` },
      blocks: [
        introSection(
          mrkdwn`*${brandName(brand.name)}* has ${aliases.length} aliases, more than this form can hold. Change them one at a time with \`/visibility aliases &lt;brand&gt; add &lt;alias&gt;\` or \`remove &lt;alias&gt;\`.`,
        ),
      ],
    };
  }
  return brandFormModal({
    callbackId: ALIASES_CALLBACK_ID,
    brand,
    where,
    title: mrkdwn`Edit aliases`,
    submit: mrkdwn`Save`,
    intro: mrkdwn`Aliases of *${brandName(brand.name)}*: other names whose mentions count toward its visibility score. The list you save replaces the current one; duplicates are dropped.`,
    inputs: [
      {
        type: 'input',
        block_id: ALIASES_BLOCK_ID,
        optional: true,
        label: { type: 'plain_text', text: mrkdwn`Aliases` },
        hint: {
          type: 'plain_text',
          text: mrkdwn`One per line, or separated by commas. Leave empty to remove them all.`,
        },
        element: {
          type: 'plain_text_input',
          action_id: INPUT_ACTION_ID,
          multiline: true,
          max_length: ALIASES_INPUT_MAX,
          ...(initial ? { initial_value: initial } : {}),
        },
      },
    ],
  });
}
