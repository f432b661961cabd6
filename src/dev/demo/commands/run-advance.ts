/**
 * `:advance`: the simulator moves to its next daily snapshot (the research run of a new
 * day): for every brand some cited pages are lost and others appear; the console lists them.
 * The demo's clock does not move, so a run published ahead of it is dated a day after
 * today on every screen: the console says so, and why.
 */
import { dayText } from '../../../figures/day-text.js';
import { counted } from '../../../figures/plural.js';
import { utcDay } from '../../../utc-days.js';
import type { ConsoleContext } from '../console-context.js';
import { DEMO_BRANDS } from '../demo-brands.js';

const MAX_LISTED = 3;

function listed(urls: readonly string[]): string {
  const shown = urls.slice(0, MAX_LISTED).join(', ');
  return urls.length > MAX_LISTED ? `${shown}, … (${urls.length} in all)` : shown;
}

export function runAdvance(ctx: ConsoleContext): void {
  const { io } = ctx;
  const { control } = ctx.stack.sim;
  const before = new Map(DEMO_BRANDS.map((b) => [b.id, new Set(control.citationUrls(b.id))]));
  const from = control.snapshotIndex();
  control.advanceSnapshot();
  const day = control.snapshotDate();
  io.print(
    io.style.accent(
      `The simulator moved to its next daily snapshot (${from} → ${control.snapshotIndex()}), the research of ${dayText(day)}. What changed:`,
    ),
  );
  for (const brand of DEMO_BRANDS) {
    const old = before.get(brand.id) ?? new Set<string>();
    const now = control.citationUrls(brand.id);
    const gained = now.filter((u) => !old.has(u));
    const lost = [...old].filter((u) => !now.includes(u));
    const parts = [
      lost.length ? `lost ${counted(lost.length, 'cited page')} (${listed(lost)})` : '',
      gained.length ? `gained ${gained.length} (${listed(gained)})` : '',
    ].filter(Boolean);
    io.print(
      `• ${io.style.bold(brand.name)}: ${parts.length ? parts.join('; ') : 'no cited page came or went'}`,
    );
  }
  const today = utcDay(ctx.stack.deps.clock.now());
  if (day > today) {
    io.print(
      io.style.dim(
        `That day is after today (${dayText(today)}): the demo publishes research faster than its clock moves, so every screen dates these figures ${dayText(day)}.`,
      ),
    );
  }
  io.print(
    io.style.dim(
      'The scripted day also lowers the sentiment of a cited page and may name a competitor on one. :jobs turns these into alerts.',
    ),
  );
}
