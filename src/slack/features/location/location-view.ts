/** The reply after the primary location changed. */
import type { LocationResponse } from '../../../api/schemas/index.js';
import { countryLabel } from '../../../countries.js';
import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import { escapeMrkdwn, joinMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { truncateMrkdwn, truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { brandButton } from '../../views/brand-button.js';
import { brandName } from '../../views/brand-name.js';

export function locationSetReply(name: string, r: LocationResponse): Reply {
  const place = [r.location_region, r.location_city]
    .filter((p): p is string => Boolean(p))
    .map((p) => escapeMrkdwn(truncatePlain(p, 100)));
  const where = place.length ? mrkdwn` (${joinMrkdwn(place, mrkdwn`, `)})` : mrkdwn``;
  const lines = [
    mrkdwn`:round_pushpin: The primary location of *${brandName(name)}* is now *${escapeMrkdwn(countryLabel(r.location))}*${where}.`,
  ];
  if (r.location_provider_code !== null && r.location_provider_code !== undefined) {
    lines.push(mrkdwn`Provider location code: ${escapeMrkdwn(String(r.location_provider_code))}.`);
  }
  lines.push(mrkdwn`The primary market moved with it; no extra market was used.`);
  const text = joinMrkdwn(lines, mrkdwn`\n`);
  return {
    text: truncateMrkdwn(text, L.fallbackText),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: truncateMrkdwn(text, L.sectionText) } },
      {
        type: 'actions',
        block_id: 'vis:location:after',
        elements: [brandButton(mrkdwn`All markets`, 'vis:open:markets', { brandId: r.brand_id })],
      },
    ],
  };
}
