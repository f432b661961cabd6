/**
 * The scaffolding every brand form shares: the callback_id, the brand (and the channel it
 * was opened from) in private_metadata, a title, Submit and Cancel, an intro section that
 * names the brand, then the form's own inputs. A form opened without a brand (a command
 * that named none, in a channel with no default) asks for it first, in a type-ahead brand
 * select; the brand is then read from that input at submission.
 */
import type { Brand } from '../../api/schemas/index.js';
import type { KnownBlock, ModalView } from '../../messages/block-kit-types.js';
import { type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { truncateMrkdwn } from '../../messages/truncate-mrkdwn.js';
import { type BrandModalMetadata, encodeBrandModalMetadata } from './brand-modal-metadata.js';
import { BRAND_SELECT_ACTION_ID, brandSelect } from './brand-select.js';

/** The action_id of every input of a brand form (the block_id tells them apart). */
export const INPUT_ACTION_ID = 'value';
/** The block of the brand select in a form opened without a brand (its action_id is the select's own). */
export const BRAND_INPUT_BLOCK_ID = 'brand';

/** The form's first input when it asks which brand. */
function brandInput(): KnownBlock {
  return {
    type: 'input',
    block_id: BRAND_INPUT_BLOCK_ID,
    label: { type: 'plain_text', text: mrkdwn`Brand` },
    hint: { type: 'plain_text', text: mrkdwn`Type part of a brand's name or one of its aliases.` },
    element: brandSelect({ actionId: BRAND_SELECT_ACTION_ID }),
  };
}

interface BrandFormModal {
  callbackId: string;
  /** Undefined: the form asks which brand, in a brand select above its own inputs. */
  brand: Pick<Brand, 'id'> | undefined;
  where: Omit<BrandModalMetadata, 'brandId'>;
  title: Mrkdwn;
  submit: Mrkdwn;
  /** mrkdwn above the inputs, cut to a section's 3000 characters. */
  intro: Mrkdwn;
  inputs: readonly KnownBlock[];
}

/** A section of mrkdwn cut to Slack's 3000 characters (no other cleaning). */
export function introSection(text: Mrkdwn): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: truncateMrkdwn(text, 3000) } };
}

export function brandFormModal(f: BrandFormModal): ModalView {
  return {
    type: 'modal',
    callback_id: f.callbackId,
    private_metadata: encodeBrandModalMetadata(f.brand ? { brandId: f.brand.id, ...f.where } : f.where),
    title: { type: 'plain_text', text: f.title },
    submit: { type: 'plain_text', text: f.submit },
    close: { type: 'plain_text', text: mrkdwn`Cancel` },
    blocks: [introSection(f.intro), ...(f.brand ? [] : [brandInput()]), ...f.inputs],
  };
}
