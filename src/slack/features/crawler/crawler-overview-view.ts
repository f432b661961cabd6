/**
 * `/visibility crawler <brand> [range] [--compare]`: AI crawler visits at a glance — hero
 * figures with their change, the daily trend as a sparkline, which crawlers came and of
 * what kind, the most crawled pages and the latest visits.
 */

import type { CrawlerOverview } from '../../../api/schemas/index.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount, formatPercent, formatSignedPercent } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { compact, contextBlock, fieldsBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText, linkOrText } from '../../views/link-or-text.js';
import { sparkline } from '../../views/sparkline.js';
import { roomLeft, takeLinesWithin } from '../../views/take-lines-within.js';

export interface CrawlerOverviewInput {
  brand: { id: string; name: string };
  response: CrawlerOverview;
}

const BOT_TYPES: readonly ['training' | 'search' | 'interaction' | 'agent' | 'other', Mrkdwn][] = [
  ['training', mrkdwn`Training`],
  ['search', mrkdwn`Search`],
  ['interaction', mrkdwn`Interaction`],
  ['agent', mrkdwn`Agent`],
  ['other', mrkdwn`Other`],
];

const withChange = (value: Mrkdwn, change: number | null | undefined, compared: boolean): Mrkdwn =>
  typeof change === 'number'
    ? mrkdwn`${value} (${formatSignedPercent(change)}${compared ? mrkdwn` vs previous period` : mrkdwn``})`
    : value;

function recentTime(iso: string): Mrkdwn {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? escapeMrkdwn(`${m[1]} ${m[2]} UTC`) : inlineText(iso, 30);
}

export function crawlerOverviewReply(input: CrawlerOverviewInput): Reply {
  const { brand, response: r } = input;
  const compared = r.range.compare_to === 'previous_period';
  const blocks: KnownBlock[] = compact([
    headerBlock(mrkdwn`AI crawler visits · ${escapeMrkdwn(brand.name)}`),
    contextBlock(
      mrkdwn`${inlineText(r.range.start, 20)} – ${inlineText(r.range.end, 20)}`,
      mrkdwn`${formatCount(r.range.days)} day${r.range.days === 1 ? mrkdwn`` : mrkdwn`s`} (${inlineText(r.range.range_preset, 20)})`,
      compared && mrkdwn`compared with the previous period`,
    ),
  ]);
  if (!r.state.has_tracking_id) {
    blocks.push(
      sectionBlock(
        mrkdwn`:warning: Crawler tracking is not set up for this brand: add the tracking snippet or log integration in the Brand Visibility dashboard to start counting AI crawler visits.`,
      ),
    );
  } else if (!r.state.has_historical_data) {
    blocks.push(
      sectionBlock(
        mrkdwn`:hourglass: Tracking is set up but no history has been collected yet; figures fill in over the next days.`,
      ),
    );
  }
  const h = r.hero;
  blocks.push(
    ...compact([
      fieldsBlock([
        {
          label: mrkdwn`Total visits`,
          value: withChange(mrkdwn`*${formatCount(h.total_visits)}*`, h.total_visits_change, compared),
        },
        {
          label: mrkdwn`Unique pages`,
          value: withChange(formatCount(h.unique_pages), h.unique_pages_change, compared),
        },
        { label: mrkdwn`Avg daily visits`, value: formatCount(h.avg_daily_visits) },
        { label: mrkdwn`Top crawler`, value: h.top_crawler ? inlineText(h.top_crawler, 60) : mrkdwn`—` },
        { label: mrkdwn`Search bot visits`, value: formatCount(r.breakdown.search_bot_visits) },
        { label: mrkdwn`Crawl efficiency`, value: formatPercent(r.breakdown.crawl_efficiency_pct) },
      ]),
    ]),
  );

  const series = [...r.chart.series].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const trendLines: Mrkdwn[] = [];
  if (series.length > 0) {
    const counts = series.map((p) => p.count);
    trendLines.push(
      mrkdwn`*Daily visits*  \`${sparkline(counts, 45)}\`  ${inlineText(series[0]!.date, 20)}: ${formatCount(counts[0])} → ${inlineText(series.at(-1)!.date, 20)}: *${formatCount(counts.at(-1))}* (peak ${formatCount(counts.reduce((a, b) => Math.max(a, b), 0))})`,
    );
  }
  const types = r.chart.bot_type_summary;
  trendLines.push(
    mrkdwn`*By bot type*  ${joinMrkdwn(
      BOT_TYPES.map(([k, label]) => mrkdwn`${label} ${formatCount(types[k])}`),
      mrkdwn` · `,
    )}`,
  );
  const distribution = [...r.chart.distribution].sort((a, b) => b.count - a.count);
  if (distribution.length > 0) {
    const shown = distribution
      .slice(0, 8)
      .map(
        (d) => mrkdwn`${inlineText(d.crawler, 40)} ${formatCount(d.count)} (${formatPercent(d.percentage)})`,
      );
    const others = distribution.length > 8 ? mrkdwn` · +${distribution.length - 8} more` : mrkdwn``;
    trendLines.push(mrkdwn`*Crawlers*  ${joinMrkdwn(shown, mrkdwn` · `)}${others}`);
  }
  blocks.push(sectionBlock(joinMrkdwn(trendLines, mrkdwn`\n`)));

  const pages = [...r.top_pages].sort((a, b) => b.count - a.count);
  if (pages.length > 0) {
    const lines = pages.map(
      (p) =>
        mrkdwn`• ${linkOrText(p.url, undefined, 80)} — ${formatCount(p.count)} visits${
          p.crawlers.length
            ? mrkdwn` · ${joinMrkdwn(
                p.crawlers.slice(0, 4).map((c) => inlineText(c, 30)),
                mrkdwn`, `,
              )}${p.crawlers.length > 4 ? mrkdwn` +${p.crawlers.length - 4}` : mrkdwn``}`
            : mrkdwn``
        }`,
    );
    const { kept } = takeLinesWithin(lines.slice(0, 8), Math.min(2500, roomLeft(blocks) * 0.55));
    const more = pages.length - kept.length;
    blocks.push(
      ...chunkSections([
        mrkdwn`*Top pages*`,
        ...kept,
        ...(more > 0 ? [mrkdwn`…and ${formatCount(more)} more`] : []),
      ]),
    );
  }
  if (r.recent_preview.length > 0) {
    const lines = r.recent_preview.map(
      (v) =>
        mrkdwn`• ${recentTime(v.visited_at)} · ${inlineText(v.platform, 30)} (${inlineText(v.intent, 20)}) · ${linkOrText(v.url, undefined, 70)} · ${escapeMrkdwn(String(v.status_code))}`,
    );
    const { kept } = takeLinesWithin(lines.slice(0, 6), Math.min(2000, roomLeft(blocks) - 100));
    blocks.push(...chunkSections([mrkdwn`*Recent visits*`, ...kept]));
  }
  const change =
    typeof h.total_visits_change === 'number' ? ` (${formatSignedPercent(h.total_visits_change)})` : '';
  return {
    text: fallbackText(
      escapeMrkdwn(
        `AI crawler visits for ${brand.name}, ${r.range.start} – ${r.range.end}: ${h.total_visits} visits${change}, ${h.unique_pages} pages, top crawler ${h.top_crawler ?? 'none'}.`,
      ),
    ),
    blocks,
  };
}
