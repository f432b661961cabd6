/**
 * `crawler <brand> ping`: POST /crawler/verification-ping. A viewer brand is refused
 * before any request (the service would answer 403, which reads like a rejected key).
 */

import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { auditedWrite } from '../../kit/audited-write.js';
import { ensureCanEditBrand } from '../../kit/permissions.js';
import { crawlerPayloadReply } from './crawler-tab-view.js';
import { type CrawlerViewArgs, noRange } from './crawler-view-args.js';
import { CRAWLER_WRITES } from './crawler-writes.js';

export async function runCrawlerPing(a: CrawlerViewArgs): Promise<void> {
  noRange(a);
  if (a.operands.length > 0) throw a.fail('`ping` takes no more words.');
  a.flags.rejectUnknown();
  const action = CRAWLER_WRITES.ping;
  await a.ctx.requireWriter(action);
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const actor = { userId: a.ctx.userId, channelId: a.ctx.channelId };
  await ensureCanEditBrand(a.ctx.deps, actor, brand, action);
  const payload = await auditedWrite(a.ctx.deps, actor, { brandId: brand.id, action }, () =>
    a.ctx.deps.api.verificationPing({ brandId: brand.id }),
  );
  await a.ctx.respond(
    crawlerPayloadReply({
      brand,
      title: 'Verification ping',
      lead: mrkdwn`:satellite_antenna: Sent the synthetic verification ping for *${escapeMrkdwn(brand.name)}*. It should show up in \`crawler live\` shortly.`,
      payload,
    }),
  );
}
