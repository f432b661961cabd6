/**
 * `demo --tour`: help, then the first example of every registered subcommand (so the tour
 * grows as commands land), a click or two, the App Home, a new day of data and an alert.
 * `#` lines are narration: the tour prints them.
 */
import type { Subcommand } from '../../slack/commands/subcommand.js';
import { DEMO_BRANDS } from './demo-brands.js';

/** Subcommands whose example undoes what the tour set up for `:jobs`. */
const UNDOING = new Set(['unsubscribe']);

export function tourLines(subcommands: readonly Subcommand[]): string[] {
  const brand = DEMO_BRANDS[0]!.name;
  const lines = ['# Every /visibility subcommand starts with help:', '/visibility help'];
  const seen = new Set(['/visibility help']);
  // Undoing commands go last, so the jobs at the end still see the subscription.
  const atTheEnd: string[] = [];
  for (const s of subcommands) {
    const example = s.examples[0];
    if (!example || seen.has(example)) continue;
    seen.add(example);
    if (UNDOING.has(s.name)) {
      atTheEnd.push(`# ${s.name}: ${s.summary}`, example);
      continue;
    }
    lines.push(`# ${s.name}: ${s.summary}`, example);
    if (s.name === 'brands') {
      lines.push(
        '# Buttons are numbered; :click presses one (by number or label).',
        ':click Details',
        ':click Citations',
      );
    }
  }
  lines.push(
    '# The App Home tab:',
    ':home',
    '# A new day of data in the simulator:',
    ':advance',
    `# Stage an alert: ${brand} has used 92 % of its AI Pages requests.`,
    `:usage "${brand}" 92`,
    '# The scheduled jobs, run once now:',
    ':jobs',
    ...atTheEnd,
  );
  return lines;
}
