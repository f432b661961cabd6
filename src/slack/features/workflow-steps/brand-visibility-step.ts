/**
 * "Get brand visibility": a brand in; its figures out, each under the one name the bot
 * gives it everywhere, for the next steps of the workflow (a message, a spreadsheet row):
 * - cited pages: pages AI answers cite for the brand (GET /get-citations, its total);
 * - citations and brand mentions: on the latest day the service measured (view=history);
 * - AI crawler visits: the 7 whole days ending yesterday, as the crawler alerts count them;
 * - AI Pages used: the percent of this month's AI Pages requests, rounded down as every
 *   screen shows it; left out when the brand has no AI Pages (the summary says so).
 * Four API calls, one after the other (the limiter paces them anyway).
 */

import { fetchCrawlerPeriods } from '../../../alerting/crawler-range.js';
import { fetchAiPagesInput } from '../../../alerting/fetch-digest-sections.js';
import { isAiPagesUnavailable } from '../../../alerts/detect-ai-pages.js';
import { formatCount, usagePercent } from '../../../figures/format-number.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { StepOutputs, WorkflowStep } from '../../steps/workflow-step.js';
import { BRAND_INPUT, RUN_FOR_INPUT, stepBrand } from './step-brand.js';

const n = (x: number): Mrkdwn => escapeMrkdwn(formatCount(x));

export const brandVisibilityStep: WorkflowStep = {
  callbackId: 'get_brand_visibility',
  definition: {
    title: 'Get brand visibility',
    description:
      'How a brand shows up in AI answers: cited pages, citations, brand mentions, AI crawler visits in the last 7 days and AI Pages usage.',
    input_parameters: { brand: BRAND_INPUT, user: RUN_FOR_INPUT },
    output_parameters: {
      brand_name: {
        type: 'string',
        title: 'Brand name',
        description: 'The brand’s name as the service spells it.',
      },
      cited_pages: {
        type: 'integer',
        title: 'Cited pages',
        description: 'Pages that AI answers cite for the brand, one per address.',
      },
      citations: {
        type: 'integer',
        title: 'Citations',
        description: 'Times AI answers cited the brand’s pages, on the latest day the service measured.',
      },
      brand_mentions: {
        type: 'integer',
        title: 'Brand mentions',
        description: 'AI answers that mention the brand, on the latest day the service measured.',
      },
      ai_crawler_visits: {
        type: 'integer',
        title: 'AI crawler visits, last 7 days',
        description: 'Visits of AI crawlers to the brand’s website in the 7 whole days ending yesterday.',
      },
      ai_pages_used_percent: {
        type: 'integer',
        title: 'AI Pages used (%)',
        description:
          'Percent of this month’s AI Pages requests used, rounded down. Empty when the brand has no AI Pages.',
      },
      summary: {
        type: 'string',
        title: 'Summary',
        description: 'Every figure in one sentence, ready for a message.',
      },
    },
  },
  async run(ctx) {
    const brand = await stepBrand(ctx);
    const { api, clock } = ctx.deps;
    const list = await api.getCitationList({ brandId: brand.id, limit: 1 });
    const history = await api.getCitationHistory({ brandId: brand.id, days: 7 });
    const crawler = await fetchCrawlerPeriods(api, brand.id, clock.now(), {});
    const aiPages = await fetchAiPagesInput(api, brand.id, {});
    const latest = history.brand_time_series.at(-1);
    const citedPages = list.pagination.total;
    const citations = latest?.total_citations ?? 0;
    const mentions = latest?.brand_mentions ?? 0;
    const visits = crawler.current.total;
    const usage = isAiPagesUnavailable(aiPages) ? null : aiPages.usage;
    const name = escapeMrkdwn(brand.name);
    const pagesPart =
      usage === null
        ? mrkdwn`AI Pages is not in use for it`
        : mrkdwn`${usagePercent(usage.percentage_used)} % of this month’s AI Pages used`;
    const outputs: StepOutputs = {
      brand_name: name,
      cited_pages: citedPages,
      citations,
      brand_mentions: mentions,
      ai_crawler_visits: visits,
      summary: mrkdwn`${name}: ${n(citedPages)} cited pages; ${n(citations)} citations and ${n(mentions)} brand mentions${latest ? mrkdwn` on ${escapeMrkdwn(latest.date)}` : mrkdwn``}; ${n(visits)} AI crawler visits in the last 7 days; ${pagesPart}.`,
    };
    if (usage !== null) outputs['ai_pages_used_percent'] = usagePercent(usage.percentage_used);
    return outputs;
  },
};
