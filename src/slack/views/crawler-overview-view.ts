/**
 * `/visibility crawler <brand> [range] [--compare]`: AI crawler visits at a glance — hero
 * figures with their change, the daily trend as a sparkline, which crawlers came and of
 * what kind, the most crawled pages and the latest visits.
 */

import type { CrawlerOverview } from '../../api/schemas/index.js';
import type { Reply } from '../reply.js';
import { compact, contextBlock, fieldsBlock, headerBlock, sectionBlock } from './basic-blocks.js';
import type { KnownBlock } from './block-kit-types.js';
import { chunkSections } from './chunk-sections.js';
import { fallbackText } from './fallback-text.js';
import { formatCount, formatPercent, formatSignedPercent } from './format-number.js';
import { inlineText, linkOrText } from './link-or-text.js';
import { sparkline } from './sparkline.js';
import { roomLeft, takeLinesWithin } from './take-lines-within.js';

export interface CrawlerOverviewInput {
  brand: { id: string; name: string };
  response: CrawlerOverview;
}

const BOT_TYPES: readonly ['training' | 'search' | 'interaction' | 'agent' | 'other', string][] = [
  ['training', 'Training'],
  ['search', 'Search'],
  ['interaction', 'Interaction'],
  ['agent', 'Agent'],
  ['other', 'Other'],
];

const withChange = (value: string, change: number | null | undefined, compared: boolean) =>
  typeof change === 'number'
    ? `${value} (${formatSignedPercent(change)}${compared ? ' vs previous period' : ''})`
    : value;

function recentTime(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : inlineText(iso, 30);
}

export function crawlerOverviewReply(input: CrawlerOverviewInput): Reply {
  const { brand, response: r } = input;
  const compared = r.range.compare_to === 'previous_period';
  const blocks: KnownBlock[] = compact([
    headerBlock(`AI crawler visits · ${brand.name}`),
    contextBlock(
      `${inlineText(r.range.start, 20)} – ${inlineText(r.range.end, 20)}`,
      `${formatCount(r.range.days)} day${r.range.days === 1 ? '' : 's'} (${inlineText(r.range.range_preset, 20)})`,
      compared && 'compared with the previous period',
    ),
  ]);
  if (!r.state.has_tracking_id) {
    blocks.push(
      sectionBlock(
        ':warning: Crawler tracking is not set up for this brand: add the tracking snippet or log integration in the Brand Visibility dashboard to start counting AI crawler visits.',
      ),
    );
  } else if (!r.state.has_historical_data) {
    blocks.push(
      sectionBlock(
        ':hourglass: Tracking is set up but no history has been collected yet; figures fill in over the next days.',
      ),
    );
  }
  const h = r.hero;
  blocks.push(
    ...compact([
      fieldsBlock([
        {
          label: 'Total visits',
          value: withChange(`*${formatCount(h.total_visits)}*`, h.total_visits_change, compared),
        },
        {
          label: 'Unique pages',
          value: withChange(formatCount(h.unique_pages), h.unique_pages_change, compared),
        },
        { label: 'Avg daily visits', value: formatCount(h.avg_daily_visits) },
        { label: 'Top crawler', value: h.top_crawler ? inlineText(h.top_crawler, 60) : '—' },
        { label: 'Search bot visits', value: formatCount(r.breakdown.search_bot_visits) },
        { label: 'Crawl efficiency', value: formatPercent(r.breakdown.crawl_efficiency_pct) },
      ]),
    ]),
  );

  const series = [...r.chart.series].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const trendLines: string[] = [];
  if (series.length > 0) {
    const counts = series.map((p) => p.count);
    trendLines.push(
      `*Daily visits*  \`${sparkline(counts, 45)}\`  ${inlineText(series[0]!.date, 20)}: ${formatCount(counts[0])} → ${inlineText(series.at(-1)!.date, 20)}: *${formatCount(counts.at(-1))}* (peak ${formatCount(counts.reduce((a, b) => Math.max(a, b), 0))})`,
    );
  }
  const types = r.chart.bot_type_summary;
  trendLines.push(
    `*By bot type*  ${BOT_TYPES.map(([k, label]) => `${label} ${formatCount(types[k])}`).join(' · ')}`,
  );
  const distribution = [...r.chart.distribution].sort((a, b) => b.count - a.count);
  if (distribution.length > 0) {
    const shown = distribution
      .slice(0, 8)
      .map((d) => `${inlineText(d.crawler, 40)} ${formatCount(d.count)} (${formatPercent(d.percentage)})`);
    trendLines.push(
      `*Crawlers*  ${shown.join(' · ')}${distribution.length > 8 ? ` · +${distribution.length - 8} more` : ''}`,
    );
  }
  blocks.push(sectionBlock(trendLines.join('\n')));

  const pages = [...r.top_pages].sort((a, b) => b.count - a.count);
  if (pages.length > 0) {
    const lines = pages.map(
      (p) =>
        `• ${linkOrText(p.url, undefined, 80)} — ${formatCount(p.count)} visits${
          p.crawlers.length
            ? ` · ${p.crawlers
                .slice(0, 4)
                .map((c) => inlineText(c, 30))
                .join(', ')}${p.crawlers.length > 4 ? ` +${p.crawlers.length - 4}` : ''}`
            : ''
        }`,
    );
    const { kept } = takeLinesWithin(lines.slice(0, 8), Math.min(2500, roomLeft(blocks) * 0.55));
    const more = pages.length - kept.length;
    blocks.push(
      ...chunkSections(['*Top pages*', ...kept, ...(more > 0 ? [`…and ${formatCount(more)} more`] : [])]),
    );
  }
  if (r.recent_preview.length > 0) {
    const lines = r.recent_preview.map(
      (v) =>
        `• ${recentTime(v.visited_at)} · ${inlineText(v.platform, 30)} (${inlineText(v.intent, 20)}) · ${linkOrText(v.url, undefined, 70)} · ${v.status_code}`,
    );
    const { kept } = takeLinesWithin(lines.slice(0, 6), Math.min(2000, roomLeft(blocks) - 100));
    blocks.push(...chunkSections(['*Recent visits*', ...kept]));
  }
  const change =
    typeof h.total_visits_change === 'number' ? ` (${formatSignedPercent(h.total_visits_change)})` : '';
  return {
    text: fallbackText(
      `AI crawler visits for ${brand.name}, ${r.range.start} – ${r.range.end}: ${h.total_visits} visits${change}, ${h.unique_pages} pages, top crawler ${h.top_crawler ?? 'none'}.`,
    ),
    blocks,
  };
}
