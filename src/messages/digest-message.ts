/**
 * The daily digest message for one brand in one channel (docs/alert-semantics.md): cited pages new and
 * lost, top content ideas, AI crawler visits, AI Pages usage, each with a button that
 * drills into the matching view. Every figure carries its glossary name and every period
 * its real dates, as the views that show it do. Pure: a Digest in, `{text, blocks,
 * metadata}` out, within Slack's limits whatever the input (long lists end in "…and N more").
 */

import { changeFeedWindow } from '../alerts/change-feed-window.js';
import type { Digest, DigestIdea, DigestUrl, Unavailable } from '../alerts/compose-digest.js';
import type { OpenView } from '../alerts/types.js';
import { dayCount, daysIncluded, dayText } from '../figures/day-text.js';
import { countFigure, figureName, figureWords } from '../figures/glossary.js';
import type { SlackMessageMetadata } from './alert-message.js';
import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import type { Button, KnownBlock } from './block-kit-types.js';
import { formatCount, formatFigure, formatSignedCount, formatSignedPercent } from './format-number.js';
import {
  escapeMrkdwn,
  joinMrkdwn,
  type Mrkdwn,
  mrkdwn,
  mrkdwnLink,
  slackDay,
  slackPeriod,
} from './mrkdwn.js';
import { shrinkToFit } from './shrink-to-fit.js';
import { truncateId, truncateMrkdwn, truncatePlain } from './truncate-mrkdwn.js';
import { ideaTypeName, pageTypeName } from './vocabulary.js';

interface DigestMessage {
  text: Mrkdwn;
  blocks: KnownBlock[];
  metadata: SlackMessageMetadata;
}

const DIGEST_METADATA_EVENT = 'visibility_digest';

export const DIGEST_OPEN_ACTIONS: Readonly<Record<OpenView, string>> = {
  'citations-feed': 'vis:open:citations-feed',
  ideas: 'vis:open:ideas',
  crawler: 'vis:open:crawler',
  aipages: 'vis:open:aipages',
};

const md = (text: Mrkdwn) => ({ type: 'mrkdwn' as const, text });
const num = (n: number): Mrkdwn => formatCount(n);
const NAME = {
  citedPages: escapeMrkdwn(figureName('citedPages')),
  aiCrawlerVisits: escapeMrkdwn(figureName('aiCrawlerVisits')),
  aiPagesUsage: escapeMrkdwn(figureName('aiPagesUsage')),
};

/** `params`: short extra values for the view (e.g. the change feed's `days-back`). */
export function openButton(
  view: OpenView,
  label: Mrkdwn,
  brandId: string,
  params: Record<string, string> = {},
): Button {
  return {
    type: 'button',
    text: { type: 'plain_text', text: truncatePlain(label, L.buttonText) },
    action_id: DIGEST_OPEN_ACTIONS[view],
    value: truncateId(JSON.stringify({ brandId, ...params }), L.buttonValue),
  };
}

/** "• title (14 citations)": how often AI answers cite the page, in the glossary's word. */
export function urlLine(u: DigestUrl): Mrkdwn {
  const label = truncatePlain(u.title ?? u.url, 80);
  // Very long URLs are shown, not linked: the link markup would eat the section's room.
  const shown = u.url.length <= 500 ? mrkdwnLink(u.url, label) : escapeMrkdwn(label);
  const cited =
    u.appearances !== null ? mrkdwn` (${escapeMrkdwn(countFigure('citations', u.appearances))})` : mrkdwn``;
  return mrkdwn`• ${shown}${cited}`;
}

/** Lines under a heading within `max` chars; the ones that do not fit become "…and N more". */
export function withList(head: Mrkdwn, lines: Mrkdwn[], total: number, max: number): Mrkdwn {
  let text = head;
  let shown = 0;
  for (const line of lines) {
    const remaining = total - shown - 1;
    const more = remaining > 0 ? mrkdwn`\n…and ${remaining} more` : mrkdwn``;
    if (text.length + 1 + line.length + more.length > max) break;
    text = mrkdwn`${text}\n${line}`;
    shown += 1;
  }
  if (shown < total) {
    const more = mrkdwn`\n…and ${total - shown} more`;
    text = mrkdwn`${truncateMrkdwn(text, max - more.length)}${more}`;
  }
  return truncateMrkdwn(text, max);
}

const unavailable = (title: Mrkdwn, u: Unavailable) =>
  mrkdwn`*${title}*: unavailable: ${escapeMrkdwn(u.reason)}`;

/** "64 on Nov 27, 2026", the day as a date token; "64" when the service named no day. */
const onDay = (n: number, date: string | null): Mrkdwn =>
  date ? mrkdwn`${num(n)} on ${slackDay(date)}` : num(n);

/**
 * Cited pages, the feed's own figures: its two snapshots' totals and the pages new and
 * lost between them, so the change always adds up (before + new − lost = now).
 */
function citationsText(d: Digest, max: number): Mrkdwn {
  const c = d.citations;
  if (c.status !== 'ok') return unavailable(NAME.citedPages, c);
  const moves =
    c.newCount === 0 && c.lostCount === 0
      ? mrkdwn`no cited page came or went`
      : mrkdwn`${num(c.newCount)} new, ${num(c.lostCount)} lost`;
  const head = mrkdwn`*${NAME.citedPages}*: ${onDay(c.current, c.currentDate)} vs ${onDay(c.previous, c.previousDate)} (${formatSignedCount(c.current - c.previous)}): ${moves}`;
  const half = Math.floor((max - head.length) / 2);
  const parts = [head];
  if (c.newCount > 0)
    parts.push(withList(mrkdwn`*New (${num(c.newCount)}):*`, c.topNew.map(urlLine), c.newCount, half));
  if (c.lostCount > 0)
    parts.push(withList(mrkdwn`*Lost (${num(c.lostCount)}):*`, c.topLost.map(urlLine), c.lostCount, half));
  return truncateMrkdwn(joinMrkdwn(parts, mrkdwn`\n`), max);
}

/** An idea in the ideas view's words: "opportunity score 88/100 · Prompt gap · Format: Comparison page". */
function ideaLine(idea: DigestIdea, n: number): Mrkdwn {
  const facts = [
    mrkdwn`${escapeMrkdwn(figureWords('ideaScore'))} ${formatFigure('ideaScore', idea.score)}`,
    escapeMrkdwn(ideaTypeName(idea.type)),
    ...(idea.template
      ? [mrkdwn`Format: ${escapeMrkdwn(truncatePlain(pageTypeName(idea.template), 60))}`]
      : []),
  ];
  return mrkdwn`${n + 1}. *${escapeMrkdwn(truncatePlain(idea.query, 200))}* (${joinMrkdwn(facts, mrkdwn` · `)})`;
}

function ideasText(d: Digest, max: number): Mrkdwn {
  const i = d.ideas;
  if (i.status !== 'ok') return unavailable(mrkdwn`Top content ideas`, i);
  if (i.top.length === 0) return mrkdwn`*Top content ideas*: none active right now.`;
  return withList(
    mrkdwn`*Top content ideas* (${num(i.activeCount)} active)`,
    i.top.map(ideaLine),
    i.top.length,
    max,
  );
}

function crawlerText(d: Digest, max: number): Mrkdwn {
  const c = d.crawler;
  if (c.status !== 'ok') return unavailable(NAME.aiCrawlerVisits, c);
  const days = daysIncluded(c.start, c.end);
  const period = days > 0 ? mrkdwn`, ${slackPeriod(days, c.end)}` : mrkdwn``;
  const before = days > 0 ? mrkdwn`in the ${escapeMrkdwn(dayCount(days))} before` : mrkdwn`the period before`;
  const head = mrkdwn`*${NAME.aiCrawlerVisits}*${period}: ${num(c.current)} vs ${num(c.previous)} ${before} (${formatSignedPercent(c.changePct)})`;
  const lines = c.topCrawlers.map(
    (m) => mrkdwn`• ${escapeMrkdwn(truncatePlain(m.crawler, 80))}: ${num(m.previous)} → ${num(m.current)}`,
  );
  return lines.length > 0 ? withList(head, lines, lines.length, max) : truncateMrkdwn(head, max);
}

function aiPagesText(d: Digest, max: number): Mrkdwn {
  const a = d.aiPages;
  switch (a.status) {
    case 'unavailable':
      return unavailable(NAME.aiPagesUsage, a);
    case 'no_entitlement':
      return mrkdwn`*AI Pages*: not part of your plan.`;
    case 'not_set_up':
      return mrkdwn`*AI Pages*: not set up for this brand.`;
    case 'ok': {
      const state = a.enabled ? mrkdwn`` : mrkdwn` *Disabled.*`;
      if (a.percentageUsed === null) return mrkdwn`*${NAME.aiPagesUsage}*: no figures yet.${state}`;
      const counts =
        a.used !== null && a.limit !== null
          ? mrkdwn` (${num(a.used)} of ${num(a.limit)} ${escapeMrkdwn(figureWords('aiPagesRequests'))})`
          : mrkdwn``;
      const reset = a.resetDate ? mrkdwn`, resets ${slackDay(a.resetDate)}` : mrkdwn``;
      return truncateMrkdwn(
        mrkdwn`*${NAME.aiPagesUsage}*: ${formatFigure('aiPagesUsage', a.percentageUsed)} of the monthly limit${counts}${reset}.${state}`,
        max,
      );
    }
  }
}

function build(d: Digest, sectionMax: number): KnownBlock[] {
  const late = d.late ? mrkdwn` (late)` : mrkdwn``;
  // A header is plain text, where no date token renders: the one date style, written out.
  const header = mrkdwn`${escapeMrkdwn(d.brandName)}: daily digest, ${escapeMrkdwn(dayText(d.date))}${late}`;
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: truncatePlain(header, L.headerText), emoji: true } },
  ];
  if (d.late) {
    blocks.push({
      type: 'context',
      elements: [
        md(
          mrkdwn`This digest is late: the bot could not send it at its usual time. The figures are current.`,
        ),
      ],
    });
  }
  // The change feed opens on the section's own two snapshots, so it lists the same pages.
  const c = d.citations;
  const feedWindow = c.status === 'ok' ? changeFeedWindow(c.previousDate, c.currentDate) : {};
  const sections: [Mrkdwn, OpenView, Mrkdwn, Record<string, string>][] = [
    [citationsText(d, sectionMax), 'citations-feed', mrkdwn`Change feed`, feedWindow],
    [ideasText(d, sectionMax), 'ideas', mrkdwn`Content ideas`, {}],
    [crawlerText(d, sectionMax), 'crawler', mrkdwn`Crawler`, {}],
    [aiPagesText(d, sectionMax), 'aipages', mrkdwn`AI Pages`, {}],
  ];
  for (const [text, view, label, params] of sections) {
    blocks.push({
      type: 'section',
      text: md(truncateMrkdwn(text, Math.min(sectionMax, L.sectionText))),
      accessory: openButton(view, label, d.brandId, params),
    });
  }
  blocks.push({
    type: 'context',
    elements: [
      md(truncateMrkdwn(mrkdwn`Brand Visibility daily digest for *${escapeMrkdwn(d.brandName)}*`, 300)),
    ],
  });
  return blocks;
}

/** The notification text: every name and query escaped like the blocks; dates written out. */
function fallback(d: Digest): Mrkdwn {
  const late = d.late ? mrkdwn` (late)` : mrkdwn``;
  const parts = [
    mrkdwn`${escapeMrkdwn(d.brandName)}: daily digest for ${escapeMrkdwn(dayText(d.date))}${late}.`,
  ];
  const c = d.citations;
  if (c.status === 'ok')
    parts.push(
      mrkdwn`${NAME.citedPages} ${num(c.current)} (${formatSignedCount(c.current - c.previous)}): ${num(c.newCount)} new, ${num(c.lostCount)} lost.`,
    );
  if (d.crawler.status === 'ok')
    parts.push(
      mrkdwn`${NAME.aiCrawlerVisits} ${num(d.crawler.current)} (${formatSignedPercent(d.crawler.changePct)}).`,
    );
  if (d.aiPages.status === 'ok' && d.aiPages.percentageUsed !== null)
    parts.push(mrkdwn`${NAME.aiPagesUsage} ${formatFigure('aiPagesUsage', d.aiPages.percentageUsed)}.`);
  if (d.ideas.status === 'ok' && d.ideas.top[0])
    parts.push(mrkdwn`Top idea: ${escapeMrkdwn(d.ideas.top[0].query)}.`);
  return truncatePlain(joinMrkdwn(parts, mrkdwn` `), L.fallbackText);
}

export function buildDigestMessage(digest: Digest, options: { dedupeKey?: string } = {}): DigestMessage {
  const blocks = shrinkToFit((sectionMax) => build(digest, sectionMax));
  return {
    text: fallback(digest),
    blocks,
    metadata: {
      event_type: DIGEST_METADATA_EVENT,
      event_payload: {
        dedupe_key: options.dedupeKey ?? digest.key,
        brand_id: digest.brandId,
        date: digest.date,
        late: digest.late,
      },
    },
  };
}
