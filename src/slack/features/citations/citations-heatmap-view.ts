/**
 * `/visibility citations <brand> heatmap`: which brands each cited domain mentions, as a
 * compact text grid (✓ present, · absent) with one lettered column per brand, and the
 * brand's coverage next to its competitors'.
 */

import type { CitationHeatmapResponse } from '../../../api/schemas/index.js';
import { counted } from '../../../figures/plural.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatPercent } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { compact, contextBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText } from '../../views/link-or-text.js';
import { percentScale } from './percent-scale.js';

export interface CitationsHeatmapInput {
  brand: { id: string; name: string };
  response: CitationHeatmapResponse;
}

const MAX_ROWS = 25;
const MAX_COLUMNS = 12;
const DOMAIN_WIDTH = 26;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

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

  const head = `${pad('', DOMAIN_WIDTH)} ${columns.map((_, i) => LETTERS[i]).join(' ')}`;
  const gridLines = rows.map((domain) => {
    const name = pad(
      truncatePlain(domain.replace(/\s+/g, ' ').replace(/`/g, "'"), DOMAIN_WIDTH),
      DOMAIN_WIDTH,
    );
    return `${name} ${columns.map((b) => (present.has(`${domain}\u0000${b}`) ? '✓' : '·')).join(' ')}`;
  });
  const grid = escapeMrkdwn([head, ...gridLines].join('\n'));
  const more = r.domains.length - rows.length;
  blocks.push(
    sectionBlock(
      mrkdwn`\`\`\`${grid}\`\`\`${more > 0 ? mrkdwn`\n…and ${escapeMrkdwn(counted(more, 'more domain'))}` : mrkdwn``}`,
    ),
  );

  const coverage = new Map<string, number>(Object.entries(r.competitor_coverage));
  coverage.set(r.your_brand, r.your_coverage);
  const scale = percentScale([...coverage.values()]);
  const legend = columns.map((b, i) => {
    const pct = coverage.get(b);
    const you = b === r.your_brand;
    const name = inlineText(b, 40);
    const coverageText =
      typeof pct === 'number' ? mrkdwn` — coverage ${formatPercent(pct * scale)}` : mrkdwn``;
    return mrkdwn`*${escapeMrkdwn(LETTERS[i] ?? '?')}* ${you ? mrkdwn`*${name}* (you)` : name}${coverageText}`;
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
  return {
    text: fallbackText(
      mrkdwn`Citation heatmap for ${escapeMrkdwn(brand.name)}: your coverage ${formatPercent(r.your_coverage * scale)} across ${escapeMrkdwn(counted(r.domains.length, 'domain'))}.`,
    ),
    blocks,
  };
}
