/** Section fields as Slack lays them out: two columns, left column padded to a shared width. */
import { visibleWidth } from '../../../terminal/style.js';

const MAX_LEFT = 40;
const GAP = '   ';

export function twoColumns(cells: readonly string[]): string[] {
  const split = cells.map((c) => c.split('\n'));
  const lefts = split.filter((_c, i) => i % 2 === 0);
  const width = Math.min(MAX_LEFT, Math.max(0, ...lefts.flat().map(visibleWidth)));
  const lines: string[] = [];
  for (let i = 0; i < split.length; i += 2) {
    const left = split[i] ?? [];
    const right = split[i + 1] ?? [];
    for (let row = 0; row < Math.max(left.length, right.length); row++) {
      const l = left[row] ?? '';
      const r = right[row];
      lines.push(r === undefined ? l : `${l}${' '.repeat(Math.max(0, width - visibleWidth(l)))}${GAP}${r}`);
    }
  }
  return lines;
}
