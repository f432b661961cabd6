/**
 * The scaffolding every brand form shares: the callback_id, the brand (and the channel it
 * was opened from) in private_metadata, a title, Submit and Cancel, an intro section that
 * names the brand, then the form's own inputs.
 */
import type { Brand } from '../../api/schemas/index.js';
import type { KnownBlock, ModalView } from '../../messages/block-kit-types.js';
import { type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { truncateMrkdwn } from '../../messages/truncate-mrkdwn.js';
import { type BrandModalMetadata, encodeBrandModalMetadata } from './brand-modal-metadata.js';

/** The action_id of every input of a brand form (the block_id tells them apart). */
export const INPUT_ACTION_ID = 'value';

export interface BrandFormModal {
  callbackId: string;
  brand: Pick<Brand, 'id'>;
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
    private_metadata: encodeBrandModalMetadata({ brandId: f.brand.id, ...f.where }),
    title: { type: 'plain_text', text: f.title },
    submit: { type: 'plain_text', text: f.submit },
    close: { type: 'plain_text', text: mrkdwn`Cancel` },
    blocks: [introSection(f.intro), ...f.inputs],
  };
}
