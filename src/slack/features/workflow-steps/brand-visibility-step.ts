/**
 * "Get brand visibility": a brand in; its figures out, each under its glossary name (the
 * one the bot gives it everywhere, src/figures/glossary.ts), for the next steps of the
 * workflow (a message, a spreadsheet row):
 * - cited pages: pages AI answers cite for the brand (GET /get-citations, its total);
 * - citations and brand mentions: on the latest day the service measured (view=history);
 * - AI crawler visits: the 7 whole days ending yesterday, as the crawler alerts count them;
 * - AI Pages usage: the percent of this month's limit, rounded down as every screen shows
 *   it; left out when the brand has no AI Pages (the summary says so).
 * Four API calls, one after the other (the limiter paces them anyway).
 */

import { isAiPagesUnavailable } from '../../../alerts/detect-ai-pages.js';
import { dayText } from '../../../figures/day-text.js';
import { countFigure, type FigureId, figure, figureName, figureWords } from '../../../figures/glossary.js';
import { countText, usagePercent, usagePercentText } from '../../../figures/number-text.js';
import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { fetchCrawlerPeriods } from '../../../use-cases/crawler-periods.js';
import { fetchAiPagesInput } from '../../../use-cases/fetch-digest-sections.js';
import type { StepOutputs, StepParameter, WorkflowStep } from '../../steps/workflow-step.js';
import { BRAND_INPUT, RUN_FOR_INPUT, stepBrand } from './step-brand.js';

/** An output named and explained as the glossary names and explains the figure. */
function figureOutput(id: FigureId, o: { titleSuffix?: string; note?: string } = {}): StepParameter {
  const f = figure(id);
  return {
    type: 'integer',
    title: `${f.name}${o.titleSuffix ?? ''}`,
    description: o.note ? `${f.explanation} ${o.note}` : f.explanation,
  };
}

const LATEST_DAY = 'On the latest day the service measured.';
const count = (id: FigureId, n: number) => escapeMrkdwn(countFigure(id, n));

export const brandVisibilityStep: WorkflowStep = {
  callbackId: 'get_brand_visibility',
  definition: {
    title: 'Get brand visibility',
    description: `How a brand shows up in AI answers: ${figureWords('citedPages')}, ${figureWords('citations')}, ${figureWords('brandMentions')}, ${figureWords('aiCrawlerVisits')} in the last 7 days and ${figureWords('aiPagesUsage')}.`,
    input_parameters: { brand: BRAND_INPUT, user: RUN_FOR_INPUT },
    output_parameters: {
      brand_name: {
        type: 'string',
        title: 'Brand name',
        description: 'The brand’s name as the service spells it.',
      },
      cited_pages: figureOutput('citedPages', { note: LATEST_DAY }),
      citations: figureOutput('citations', { note: LATEST_DAY }),
      brand_mentions: figureOutput('brandMentions', { note: LATEST_DAY }),
      ai_crawler_visits: figureOutput('aiCrawlerVisits', {
        titleSuffix: ', last 7 days',
        note: 'Over the 7 whole days ending yesterday.',
      }),
      ai_pages_used_percent: figureOutput('aiPagesUsage', {
        titleSuffix: ' (%)',
        note: 'In whole percent, rounded down; empty when the brand has no AI Pages.',
      }),
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
    const usageName = escapeMrkdwn(figureName('aiPagesUsage'));
    const pagesPart =
      usage === null
        ? mrkdwn`no AI Pages`
        : mrkdwn`${usageName} ${escapeMrkdwn(usagePercentText(usage.percentage_used))}`;
    const day = latest ? mrkdwn` on ${escapeMrkdwn(dayText(latest.date))}` : mrkdwn``;
    const outputs: StepOutputs = {
      brand_name: name,
      cited_pages: citedPages,
      citations,
      brand_mentions: mentions,
      ai_crawler_visits: visits,
      summary: mrkdwn`${name}: ${count('citedPages', citedPages)}, ${count('citations', citations)} and ${count('brandMentions', mentions)}${day}; ${escapeMrkdwn(countText(visits))} ${escapeMrkdwn(figureWords('aiCrawlerVisits'))} in the last 7 days; ${pagesPart}.`,
    };
    if (usage !== null) outputs['ai_pages_used_percent'] = usagePercent(usage.percentage_used);
    return outputs;
  },
};
