/** The alert settings form of one subscription (`settings`, or Edit on `subscriptions`). */
import type { ModalView } from '../../../messages/block-kit-types.js';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import type { Subscription } from '../../../store/subscriptions-repo.js';
import { introSection } from '../../views/brand-form-modal.js';
import { encodeBrandModalMetadata } from '../../views/brand-modal-metadata.js';
import { brandName } from '../../views/brand-name.js';
import { settingsInputs, settingsIntro } from './settings-fields.js';

export const SETTINGS_CALLBACK_ID = 'vis:settings:save';

export function settingsModal(
  sub: Pick<Subscription, 'brandId' | 'brandName' | 'channelId' | 'settings'>,
  defaultTimezone: string,
): ModalView {
  return {
    type: 'modal',
    callback_id: SETTINGS_CALLBACK_ID,
    // The subscription is (channel, brand): both come back with the submission.
    private_metadata: encodeBrandModalMetadata({ brandId: sub.brandId, channelId: sub.channelId }),
    title: { type: 'plain_text', text: mrkdwn`Alert settings` },
    submit: { type: 'plain_text', text: mrkdwn`Save` },
    close: { type: 'plain_text', text: mrkdwn`Cancel` },
    blocks: [
      introSection(settingsIntro(brandName(sub.brandName))),
      ...settingsInputs(sub.settings, defaultTimezone),
    ],
  };
}
