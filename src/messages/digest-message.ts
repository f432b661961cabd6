/**
 * The daily digest message for one brand in one channel (DESIGN.md): citations, top
 * content ideas, crawler visits, AI Pages usage, each with a button that drills into the
 * matching view. Pure: a Digest in, `{text, blocks, metadata}` out, within Slack's limits
 * whatever the input (long lists end in "…and N more").
 */
import type { Digest, DigestUrl, Unavailable } from '../alerts/compose-digest.js';
import type { OpenView } from '../alerts/types.js';
import { formatCount, formatSignedPercent, usagePercent } from '../figures/format-number.js';
import type { SlackMessageMetadata } from './alert-message.js';
import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import type { Button, KnownBlock } from './block-kit-types.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, mrkdwnLink } from './mrkdwn.js';
import { truncateId, truncateMrkdwn, truncatePlain } from './truncate-mrkdwn.js';

export interface DigestMessage {
  text: Mrkdwn;
  blocks: KnownBlock[];
  metadata: SlackMessageMetadata;
}

export const DIGEST_METADATA_EVENT = 'visibility_digest';

export const DIGEST_OPEN_ACTIONS: Readonly<Record<OpenView, string>> = {
  'citations-feed': 'vis:open:citations-feed',
  ideas: 'vis:open:ideas',
  crawler: 'vis:open:crawler',
  aipages: 'vis:open:aipages',
};

const md = (text: Mrkdwn) => ({ type: 'mrkdwn' as const, text });
const num = (n: number): Mrkdwn => escapeMrkdwn(formatCount(n));

const signedPct = (p: number | null): Mrkdwn => escapeMrkdwn(formatSignedPercent(p));

function openButton(view: OpenView, label: Mrkdwn, brandId: string): Button {
  return {
    type: 'button',
    text: { type: 'plain_text', text: truncatePlain(label, L.buttonText) },
    action_id: DIGEST_OPEN_ACTIONS[view],
    value: truncateId(JSON.stringify({ brandId }), L.buttonValue),
  };
}

function urlLine(u: DigestUrl): Mrkdwn {
  const label = truncatePlain(u.title ?? u.url, 80);
  // Very long URLs are shown, not linked: the link markup would eat the section's room.
  const shown = u.url.length <= 500 ? mrkdwnLink(u.url, label) : escapeMrkdwn(label);
  return mrkdwn`• ${shown}${u.appearances !== null ? mrkdwn` (${num(u.appearances)}×)` : mrkdwn``}`;
}

/** Lines under a heading within `max` chars; the ones that do not fit become "…and N more". */
function withList(head: Mrkdwn, lines: Mrkdwn[], total: number, max: number): Mrkdwn {
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

function citationsText(d: Digest, max: number): Mrkdwn {
  const c = d.citations;
  if (c.status !== 'ok') return unavailable(mrkdwn`Citations`, c);
  const since = c.previousDate ? mrkdwn` since ${escapeMrkdwn(c.previousDate)}` : mrkdwn``;
  const head = mrkdwn`*Citations*: ${num(c.current)} now vs ${num(c.previous)} before (${signedPct(c.changePct)})${since}`;
  const half = Math.floor((max - head.length) / 2);
  const parts = [head];
  if (c.newCount > 0)
    parts.push(withList(mrkdwn`*New (${num(c.newCount)}):*`, c.topNew.map(urlLine), c.newCount, half));
  if (c.lostCount > 0)
    parts.push(withList(mrkdwn`*Lost (${num(c.lostCount)}):*`, c.topLost.map(urlLine), c.lostCount, half));
  if (c.newCount === 0 && c.lostCount === 0) parts.push(mrkdwn`No URLs gained or lost.`);
  return truncateMrkdwn(joinMrkdwn(parts, mrkdwn`\n`), max);
}

function ideasText(d: Digest, max: number): Mrkdwn {
  const i = d.ideas;
  if (i.status !== 'ok') return unavailable(mrkdwn`Top content ideas`, i);
  if (i.top.length === 0) return mrkdwn`*Top content ideas*: none active right now.`;
  const lines = i.top.map((idea, n) => {
    const template = idea.template ? mrkdwn` · ${escapeMrkdwn(truncatePlain(idea.template, 60))}` : mrkdwn``;
    return mrkdwn`${n + 1}. *${escapeMrkdwn(truncatePlain(idea.query, 200))}* (score ${num(idea.score)}, ${escapeMrkdwn(idea.type.replace(/_/g, ' '))}${template})`;
  });
  return withList(mrkdwn`*Top content ideas* (${num(i.activeCount)} active)`, lines, i.top.length, max);
}

function crawlerText(d: Digest, max: number): Mrkdwn {
  const c = d.crawler;
  if (c.status !== 'ok') return unavailable(mrkdwn`AI crawler visits`, c);
  const head = mrkdwn`*AI crawler visits* (${escapeMrkdwn(c.start)} – ${escapeMrkdwn(c.end)}): ${num(c.current)} vs ${num(c.previous)} the week before (${signedPct(c.changePct)})`;
  const lines = c.topCrawlers.map(
    (m) => mrkdwn`• ${escapeMrkdwn(truncatePlain(m.crawler, 80))}: ${num(m.previous)} → ${num(m.current)}`,
  );
  return lines.length > 0 ? withList(head, lines, lines.length, max) : truncateMrkdwn(head, max);
}

function aiPagesText(d: Digest, max: number): Mrkdwn {
  const a = d.aiPages;
  switch (a.status) {
    case 'unavailable':
      return unavailable(mrkdwn`AI Pages`, a);
    case 'no_entitlement':
      return mrkdwn`*AI Pages*: not part of your plan.`;
    case 'not_set_up':
      return mrkdwn`*AI Pages*: not set up for this brand.`;
    case 'ok': {
      const state = a.enabled ? mrkdwn`` : mrkdwn` *Disabled.*`;
      if (a.percentageUsed === null) return mrkdwn`*AI Pages*: no usage figures yet.${state}`;
      const counts =
        a.used !== null && a.limit !== null
          ? mrkdwn` (${num(a.used)} of ${num(a.limit)} requests)`
          : mrkdwn``;
      const reset = a.resetDate ? mrkdwn`, resets ${escapeMrkdwn(a.resetDate.slice(0, 10))}` : mrkdwn``;
      return truncateMrkdwn(
        mrkdwn`*AI Pages*: ${usagePercent(a.percentageUsed)} % of the monthly limit used${counts}${reset}.${state}`,
        max,
      );
    }
  }
}

function build(d: Digest, sectionMax: number): KnownBlock[] {
  const late = d.late ? mrkdwn` (late)` : mrkdwn``;
  const header = mrkdwn`${escapeMrkdwn(d.brandName)}: daily digest, ${escapeMrkdwn(d.date)}${late}`;
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
  const sections: [Mrkdwn, OpenView, Mrkdwn][] = [
    [citationsText(d, sectionMax), 'citations-feed', mrkdwn`Citations feed`],
    [ideasText(d, sectionMax), 'ideas', mrkdwn`Content ideas`],
    [crawlerText(d, sectionMax), 'crawler', mrkdwn`Crawler`],
    [aiPagesText(d, sectionMax), 'aipages', mrkdwn`AI Pages`],
  ];
  for (const [text, view, label] of sections) {
    blocks.push({
      type: 'section',
      text: md(truncateMrkdwn(text, Math.min(sectionMax, L.sectionText))),
      accessory: openButton(view, label, d.brandId),
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

/** The notification text: every name and query escaped like the blocks. */
function fallback(d: Digest): Mrkdwn {
  const late = d.late ? mrkdwn` (late)` : mrkdwn``;
  const parts = [mrkdwn`${escapeMrkdwn(d.brandName)}: daily digest for ${escapeMrkdwn(d.date)}${late}.`];
  if (d.citations.status === 'ok')
    parts.push(
      mrkdwn`Citations ${num(d.citations.current)} (${signedPct(d.citations.changePct)}), ${d.citations.newCount} new, ${d.citations.lostCount} lost.`,
    );
  if (d.crawler.status === 'ok')
    parts.push(mrkdwn`Crawler visits ${num(d.crawler.current)} (${signedPct(d.crawler.changePct)}).`);
  if (d.aiPages.status === 'ok' && d.aiPages.percentageUsed !== null)
    parts.push(mrkdwn`AI Pages ${usagePercent(d.aiPages.percentageUsed)} % used.`);
  if (d.ideas.status === 'ok' && d.ideas.top[0])
    parts.push(mrkdwn`Top idea: ${escapeMrkdwn(d.ideas.top[0].query)}.`);
  return truncatePlain(joinMrkdwn(parts, mrkdwn` `), L.fallbackText);
}

export function buildDigestMessage(digest: Digest, options: { dedupeKey?: string } = {}): DigestMessage {
  // Four sections of up to 2,500 characters plus the rest stay under the 12 k budget in
  // nearly every case; JSON escaping can still push it over, so shrink until it fits.
  let sectionMax = 2500;
  let blocks = build(digest, sectionMax);
  while (JSON.stringify(blocks).length > L.messageBlocksChars && sectionMax > 200) {
    sectionMax = Math.floor(sectionMax * 0.8);
    blocks = build(digest, sectionMax);
  }
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
