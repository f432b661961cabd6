/**
 * "List lost citations": a brand and a number of days in; the cited pages AI answers
 * stopped citing for the brand in that time out (the citation feed's `lost` events, each
 * page once, newest first): their addresses and titles as two lists in the same order, how
 * many there are, and a ready-made list for a message. Titles and addresses come from web
 * pages: they are escaped like every text the bot sends, so a page titled `<!channel>`
 * cannot ping anyone in the workflow's next message.
 */
import type { FeedEvent } from '../../../api/schemas/citations.js';
import { dayCount } from '../../../figures/day-text.js';
import { countFigure, figureName } from '../../../figures/glossary.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, safeLinkUrl } from '../../../messages/mrkdwn.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import type { WorkflowStep } from '../../steps/workflow-step.js';
import { BRAND_INPUT, RUN_FOR_INPUT, stepBrand } from './step-brand.js';
import { wholeNumber } from './step-inputs.js';

const DAYS = { min: 1, max: 30, fallback: 7 };
/** Ours: a message step has room for a list this long (Slack's text limits). */
const MAX_LISTED = 100;
const MAX_TITLE = 200;

interface LostPage {
  url: Mrkdwn;
  title: Mrkdwn;
}

function lostPages(events: readonly FeedEvent[]): LostPage[] {
  const seen = new Set<string>();
  const pages: LostPage[] = [];
  const newestFirst = [...events].sort((a, b) => (a.timestamp < b.timestamp ? 1 : -1));
  for (const e of newestFirst) {
    if (e.event_type !== 'lost' || seen.has(e.url)) continue;
    seen.add(e.url);
    const url = safeLinkUrl(e.url) ?? e.url;
    const title = e.h1?.trim() || e.domain;
    pages.push({ url: escapeMrkdwn(url), title: truncatePlain(escapeMrkdwn(title), MAX_TITLE) });
  }
  return pages;
}

export const lostCitationsStep: WorkflowStep = {
  callbackId: 'list_lost_citations',
  definition: {
    title: 'List lost citations',
    description:
      'The pages AI answers stopped citing for a brand in the last days: their addresses and titles.',
    input_parameters: {
      brand: BRAND_INPUT,
      days: {
        type: 'integer',
        title: 'Days',
        description: `How many days back to look, from ${DAYS.min} to ${DAYS.max}.`,
        is_required: false,
        hint: `${DAYS.fallback} when left empty`,
      },
      user: RUN_FOR_INPUT,
    },
    output_parameters: {
      lost_count: {
        type: 'integer',
        title: `${figureName('citedPages')} lost`,
        description: 'How many cited pages AI answers stopped citing in that time.',
      },
      urls: {
        type: 'array',
        items: { type: 'string' },
        title: 'Addresses',
        description: 'The addresses of those pages, newest loss first.',
      },
      titles: {
        type: 'array',
        items: { type: 'string' },
        title: 'Titles',
        description: 'Their titles, in the same order as the addresses.',
      },
      summary: {
        type: 'string',
        title: 'List',
        description: 'One line per page, title and address, ready for a message.',
      },
    },
  },
  async run(ctx) {
    const days = wholeNumber(ctx.inputs, 'days', 'Days', DAYS);
    const brand = await stepBrand(ctx);
    const feed = await ctx.deps.api.getCitationFeed({ brandId: brand.id, daysBack: days });
    const pages = lostPages(feed.events);
    const listed = pages.slice(0, MAX_LISTED);
    const period = days === 1 ? mrkdwn`the last day` : mrkdwn`the last ${escapeMrkdwn(dayCount(days))}`;
    const name = escapeMrkdwn(brand.name);
    const head =
      pages.length === 0
        ? mrkdwn`${name} lost no cited pages in ${period}.`
        : mrkdwn`${name} lost ${escapeMrkdwn(countFigure('citedPages', pages.length))} in ${period}:`;
    const more = pages.length > listed.length ? [mrkdwn`…and ${pages.length - listed.length} more`] : [];
    return {
      lost_count: pages.length,
      urls: listed.map((p) => p.url),
      titles: listed.map((p) => p.title),
      summary: joinMrkdwn([head, ...listed.map((p) => mrkdwn`• ${p.title} — ${p.url}`), ...more], mrkdwn`\n`),
    };
  },
};
