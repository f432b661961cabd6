/**
 * The page, path and bot drawers (GET /crawler/page-details, path-details, bot-details):
 * opened by a row's button on a listing, or typed as `crawler <brand> details <page|path|bot>
 * <id or URL> [range]`, which is also what their Share button re-runs.
 */

import type { Brand } from '../../../api/schemas/index.js';
import type { DateRangeParams } from '../../../api/visibility-api.js';
import type { ChartSpec } from '../../../charts/chart-spec.js';
import { pageTrafficChart } from '../../../charts/page-traffic-chart.js';
import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import { withNativeChart } from '../../kit/chart-reply.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { isRangeToken, parseRange, rangeWord } from './crawler-range.js';
import { crawlerPayloadReply, type DrawerKind } from './crawler-tab-view.js';
import { type CrawlerViewArgs, shown } from './crawler-view-args.js';
import { isInternalId, isObj } from './payload-values.js';
import { nameKeyOf } from './record-row.js';

export const DRAWER_KINDS = ['page', 'path', 'bot'] as const;
const TITLES: Record<DrawerKind, string> = { page: 'Page details', path: 'Path details', bot: 'Bot details' };

interface DrawerRequest {
  kind: DrawerKind;
  entityId: string;
  range?: DateRangeParams | undefined;
}

export async function crawlerDetailsReply(
  deps: Pick<SlackDeps, 'api'>,
  brand: Pick<Brand, 'id' | 'name'>,
  d: DrawerRequest,
): Promise<Reply> {
  const params = { brandId: brand.id, kind: d.kind, entityId: d.entityId, ...d.range };
  const payload =
    d.kind === 'page'
      ? await deps.api.getCrawlerPageDetails(params)
      : d.kind === 'path'
        ? await deps.api.getCrawlerPathDetails(params)
        : await deps.api.getCrawlerBotDetails(params);
  const reply = crawlerPayloadReply({
    brand,
    title: TITLES[d.kind],
    // The drawer's own record names what it is about; without one, what was asked for does.
    lead:
      namesItsSubject(payload, d.kind) || isInternalId(d.entityId)
        ? undefined
        : mrkdwn`\`${escapeMrkdwn(d.entityId.slice(0, 200))}\``,
    payload,
    skipKeys: ['kind', 'entity_id'],
  });
  const chart = d.kind === 'page' ? pageTraffic(payload, d.entityId) : undefined;
  // The range before the verb: what follows `details` is its operands.
  const share = commandText('crawler', brand.id, [...rangeWord(d.range), 'details', d.kind, d.entityId]);
  return withShareButton(chart ? withNativeChart(reply, chart) : reply, share);
}

/** The page drawer's visits per day (`traffic.series`), as a chart; undefined without days. */
function pageTraffic(payload: Record<string, unknown>, entityId: string): ChartSpec | undefined {
  const traffic = payload['traffic'];
  const series = isObj(traffic) && Array.isArray(traffic['series']) ? traffic['series'] : [];
  const days = series.flatMap((p: unknown) =>
    isObj(p) && typeof p['date'] === 'string' && typeof p['count'] === 'number'
      ? [{ date: p['date'].slice(0, 10), value: p['count'] }]
      : [],
  );
  if (days.length === 0) return undefined;
  const page = payload['page'];
  const name = isObj(page)
    ? [page['title'], page['path'], page['url']].find(
        (v): v is string => typeof v === 'string' && v.trim() !== '',
      )
    : undefined;
  return pageTrafficChart({ page: (name ?? entityId).slice(0, 200), days });
}

/** Whether the drawer names its page, path or bot (`page: {url, title}`, `path: "/blog"`). */
function namesItsSubject(payload: Record<string, unknown>, kind: DrawerKind): boolean {
  const subject = payload[kind];
  return (
    (typeof subject === 'string' && subject.trim() !== '') ||
    (isObj(subject) && nameKeyOf(subject) !== undefined)
  );
}

export async function runCrawlerDetails(a: CrawlerViewArgs): Promise<void> {
  a.flags.rejectUnknown();
  const operands = [...a.operands];
  // `details page /pricing 7d`: a range typed after the page is the range, as it is elsewhere.
  let range = a.range;
  const last = operands.at(-1);
  if (operands.length > 2 && last !== undefined && range === undefined && isRangeToken(last)) {
    const parsed = parseRange(last);
    if (parsed.ok) {
      range = parsed.range;
      operands.pop();
    }
  }
  const [kind, entityId, ...extra] = operands;
  const lower = kind?.toLowerCase();
  if (lower === undefined || !(DRAWER_KINDS as readonly string[]).includes(lower) || entityId === undefined) {
    throw a.fail('Say which details and of what, e.g. `details page https://www.example.com/pricing`.');
  }
  if (extra.length > 0) throw a.fail(`\`details\` takes one ${lower} (got “${shown(extra.join(' '))}” too).`);
  const brand = await a.ctx.resolveBrand(a.brandToken);
  await a.ctx.respond(
    await crawlerDetailsReply(a.ctx.deps, brand, { kind: lower as DrawerKind, entityId, range }),
  );
}
