/**
 * A row's button on a crawler listing (`vis:crawler:drawer:<row>`): the page, path or bot
 * drawer (GET /crawler/page-details, path-details, bot-details) as a new message, so the
 * listing stays where it was.
 */

import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { ActionHandler } from '../../actions/action-handler.js';
import { valueFields } from '../../actions/action-value-fields.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { CRAWLER_DRAWER_ACTION, crawlerPayloadReply, type DrawerKind } from './crawler-tab-view.js';
import { isInternalId } from './generic-payload.js';

const TITLES: Record<DrawerKind, string> = { page: 'Page details', path: 'Path details', bot: 'Bot details' };

export const crawlerDrawerAction: ActionHandler = {
  prefix: CRAWLER_DRAWER_ACTION,
  async run(ctx) {
    const v = valueFields(parseActionValue(ctx.action.value));
    const kind = v.oneOf('kind', ['page', 'path', 'bot'] as const);
    const entityId = v.string('entityId');
    const range = v.optionalRange('range');
    const brand = await ctx.resolveBrand(v.string('brandId'));
    const params = { brandId: brand.id, kind, entityId, ...range };
    const api = ctx.deps.api;
    const opts = { lane: 'interactive' as const };
    const payload =
      kind === 'page'
        ? await api.getCrawlerPageDetails(params, opts)
        : kind === 'path'
          ? await api.getCrawlerPathDetails(params, opts)
          : await api.getCrawlerBotDetails(params, opts);
    const reply = crawlerPayloadReply({
      brand,
      title: TITLES[kind],
      lead: isInternalId(entityId) ? undefined : mrkdwn`\`${escapeMrkdwn(entityId.slice(0, 200))}\``,
      payload,
      skipKeys: ['kind', 'entity_id'],
    });
    await ctx.respond({ ...reply, replaceOriginal: false });
  },
};
