/**
 * `/visibility citations <brand> heatmap`: which brands each cited domain mentions, as
 * Slack's own table (a row per domain, a column per brand, ✓ present and · absent, each
 * brand's column and the count of brands sortable), and the brand's coverage next to its
 * competitors'.
 */

import type { CitationHeatmapResponse } from '../../../api/schemas/index.js';
import { countText } from '../../../figures/number-text.js';
import { counted } from '../../../figures/plural.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatPercent } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { compact, contextBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText } from '../../views/link-or-text.js';
import { nativeTable, type TableModel } from '../../views/table-model.js';
import { textWithTable } from '../../views/tables-as-text.js';
import { jsonLength, roomLeft } from '../../views/take-lines-within.js';
import { percentScale } from './percent-scale.js';

interface CitationsHeatmapInput {
  brand: { id: string; name: string };
  response: CitationHeatmapResponse;
}

/** Slack's most rows in a table; fewer when the message has no room for them. */
const MAX_ROWS = 100;
const MAX_COLUMNS = 12;
/** Rows a table shows at once; Slack pages through the rest. */
const PAGE_SIZE = 10;

/** A row per domain: a ✓ (1) or · (0) per brand, so Slack sorts a brand's column, and the count. */
function heatmapTable(domains: readonly string[], columns: readonly string[], present: Set<string>) {
  const model: TableModel = {
    columns: [
      { label: 'Cited domain' },
      ...columns.map((b) => ({ label: b })),
      { label: 'Brands mentioned', align: 'right' as const },
    ],
    rows: domains.map((domain) => {
      const marks = columns.map((b): number => (present.has(`${domain}\u0000${b}`) ? 1 : 0));
      const count = marks.reduce((a, m) => a + m, 0);
      return [
        domain,
        ...marks.map((m) => ({ number: m, text: m === 1 ? '✓' : '·' })),
        { number: count, text: countText(count) },
      ];
    }),
  };
  return model;
}

/** The first domains whose table fits `room` serialised characters. */
function fittedHeatmap(
  domains: readonly string[],
  columns: readonly string[],
  present: Set<string>,
  room: number,
) {
  for (let n = Math.min(domains.length, MAX_ROWS); n > 0; n -= 1) {
    const more = domains.length - n;
    const caption = `Which brands each cited domain mentions${more > 0 ? ` (the first ${n} of ${countText(domains.length)})` : ''}`;
    const table = nativeTable(heatmapTable(domains.slice(0, n), columns, present), {
      caption,
      pageSize: PAGE_SIZE,
    });
    if (table.block && jsonLength(table.block) <= room) return table;
  }
  return undefined;
}

export function citationsHeatmapReply(input: CitationsHeatmapInput): Reply {
  const { brand, response: r } = input;
  // The brand itself first, then competitors in the order the service gave.
  const brands = [r.your_brand, ...r.brands.filter((b) => b !== r.your_brand)];
  const columns = brands.slice(0, MAX_COLUMNS);
  const rows = r.domains.slice(0, MAX_ROWS);
  const present = new Set(r.cells.filter((c) => c.is_present).map((c) => `${c.domain}\u0000${c.brand}`));

  const blocks: KnownBlock[] = compact([
    headerBlock(mrkdwn`Citation heatmap · ${escapeMrkdwn(brand.name)}`),
    contextBlock(
      mrkdwn`${escapeMrkdwn(counted(r.domains.length, 'domain'))} × ${escapeMrkdwn(counted(brands.length, 'brand'))}`,
      mrkdwn`✓ the domain’s cited pages mention the brand`,
    ),
  ]);
  if (rows.length === 0 || columns.length === 0) {
    blocks.push(sectionBlock(mrkdwn`No cited domains to compare yet.`));
    return { text: fallbackText(mrkdwn`No heatmap data for ${escapeMrkdwn(brand.name)} yet.`), blocks };
  }

  // The coverage lines below keep their room; the caption says how many domains are shown.
  const table = fittedHeatmap(r.domains, columns, present, roomLeft(blocks) - 2500);
  if (table?.block) blocks.push(table.block);

  const coverage = new Map<string, number>(Object.entries(r.competitor_coverage));
  coverage.set(r.your_brand, r.your_coverage);
  const scale = percentScale([...coverage.values()]);
  const legend = columns.map((b) => {
    const pct = coverage.get(b);
    const you = b === r.your_brand;
    const name = inlineText(b, 40);
    const coverageText =
      typeof pct === 'number' ? mrkdwn` — coverage ${formatPercent(pct * scale)}` : mrkdwn``;
    return mrkdwn`${you ? mrkdwn`*${name}* (you)` : name}${coverageText}`;
  });
  const hidden = brands.length - columns.length;
  blocks.push(
    sectionBlock(
      joinMrkdwn(
        [...legend, ...(hidden > 0 ? [mrkdwn`…and ${escapeMrkdwn(counted(hidden, 'more brand'))}`] : [])],
        mrkdwn`\n`,
      ),
    ),
  );

  const rivals = Object.entries(r.competitor_coverage).sort((a, b) => b[1] - a[1]);
  const leader = rivals[0];
  const summary =
    leader && leader[1] > r.your_coverage
      ? mrkdwn`Your coverage is ${formatPercent(r.your_coverage * scale)}; ${inlineText(leader[0], 40)} leads with ${formatPercent(leader[1] * scale)}.`
      : mrkdwn`Your coverage is ${formatPercent(r.your_coverage * scale)}${leader ? mrkdwn`, ahead of every competitor (best: ${inlineText(leader[0], 40)} ${formatPercent(leader[1] * scale)})` : mrkdwn``}.`;
  blocks.push(sectionBlock(summary));
  const sentence = fallbackText(
    mrkdwn`Citation heatmap for ${escapeMrkdwn(brand.name)}: your coverage ${formatPercent(r.your_coverage * scale)} across ${escapeMrkdwn(counted(r.domains.length, 'domain'))}.`,
  );
  return { text: table ? textWithTable(sentence, table.text) : sentence, blocks };
}
