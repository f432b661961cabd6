/**
 * `/visibility citations <brand> heatmap`: which brands each cited domain mentions, as a
 * compact text grid (✓ present, · absent) with one lettered column per brand, and the
 * brand's coverage next to its competitors'.
 */

import type { CitationHeatmapResponse } from '../../api/schemas/index.js';
import type { Reply } from '../reply.js';
import { compact, contextBlock, headerBlock, sectionBlock } from './basic-blocks.js';
import type { KnownBlock } from './block-kit-types.js';
import { fallbackText } from './fallback-text.js';
import { formatCount, formatPercent } from './format-number.js';
import { inlineText } from './link-or-text.js';
import { escapeMrkdwn } from './mrkdwn.js';
import { percentScale } from './percent-scale.js';
import { truncatePlain } from './truncate-mrkdwn.js';

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
    headerBlock(`Citation heatmap · ${brand.name}`),
    contextBlock(
      `${formatCount(r.domains.length)} domain${r.domains.length === 1 ? '' : 's'} × ${formatCount(brands.length)} brand${brands.length === 1 ? '' : 's'}`,
      '✓ the domain’s cited pages mention the brand',
    ),
  ]);
  if (rows.length === 0 || columns.length === 0) {
    blocks.push(sectionBlock('No cited domains to compare yet.'));
    return { text: fallbackText(`No heatmap data for ${brand.name} yet.`), blocks };
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
    sectionBlock(`\`\`\`${grid}\`\`\`${more > 0 ? `\n…and ${formatCount(more)} more domains` : ''}`),
  );

  const coverage = new Map<string, number>(Object.entries(r.competitor_coverage));
  coverage.set(r.your_brand, r.your_coverage);
  const scale = percentScale([...coverage.values()]);
  const legend = columns.map((b, i) => {
    const pct = coverage.get(b);
    const you = b === r.your_brand;
    const name = inlineText(b, 40);
    return `*${LETTERS[i]}* ${you ? `*${name}* (you)` : name}${typeof pct === 'number' ? ` — coverage ${formatPercent(pct * scale)}` : ''}`;
  });
  const hidden = brands.length - columns.length;
  blocks.push(
    sectionBlock([...legend, ...(hidden > 0 ? [`…and ${formatCount(hidden)} more brands`] : [])].join('\n')),
  );

  const rivals = Object.entries(r.competitor_coverage).sort((a, b) => b[1] - a[1]);
  const leader = rivals[0];
  const summary =
    leader && leader[1] > r.your_coverage
      ? `Your coverage is ${formatPercent(r.your_coverage * scale)}; ${inlineText(leader[0], 40)} leads with ${formatPercent(leader[1] * scale)}.`
      : `Your coverage is ${formatPercent(r.your_coverage * scale)}${leader ? `, ahead of every competitor (best: ${inlineText(leader[0], 40)} ${formatPercent(leader[1] * scale)})` : ''}.`;
  blocks.push(sectionBlock(summary));
  return {
    text: fallbackText(
      `Citation heatmap for ${brand.name}: your coverage ${formatPercent(r.your_coverage * scale)} across ${r.domains.length} domains.`,
    ),
    blocks,
  };
}
