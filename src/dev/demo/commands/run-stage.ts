/**
 * `:usage <brand> <pct>` and `:traffic <brand> <factor>`: stage AI Pages usage and crawler
 * traffic in the simulator so the next `:jobs` has something to alert on.
 */
import { percentChange, signedPercentText } from '../../../figures/number-text.js';
import { dateOfDay, epochDay } from '../../../utc-days.js';
import type { ConsoleContext } from '../console-context.js';
import { ConsoleInputError } from '../console-input-error.js';
import { DEMO_BRANDS, type DemoBrand, resolveDemoBrand } from '../demo-brands.js';

function brandArg(token: string | undefined, usage: string): DemoBrand {
  if (!token) throw new ConsoleInputError(`Usage: ${usage}`);
  const brand = resolveDemoBrand(token);
  if (!brand) {
    throw new ConsoleInputError(
      `No demo brand "${token}". Brands: ${DEMO_BRANDS.map((b) => `"${b.name}" (${b.key})`).join(', ')}.`,
    );
  }
  return brand;
}

/** What to type next to see the staged alert: `:jobs`, or a subscription first. */
async function nextStep(ctx: ConsoleContext, brand: DemoBrand): Promise<string> {
  const watching = (await ctx.stack.deps.store.subscriptions.activeBrandIds('alerts')).includes(brand.id);
  return watching
    ? ':jobs to see them'
    : `no channel gets ${brand.name} alerts yet: /visibility subscribe "${brand.name}" first, then :jobs`;
}

function numberArg(token: string | undefined, usage: string, ok: (n: number) => boolean): number {
  const n = Number(token?.replace(/%$/, ''));
  if (token === undefined || !Number.isFinite(n) || !ok(n)) throw new ConsoleInputError(`Usage: ${usage}`);
  return n;
}

export async function runUsage(ctx: ConsoleContext, args: readonly string[]): Promise<void> {
  const usage = ':usage <brand> <percent 0–100>';
  const brand = brandArg(args[0], usage);
  const pct = numberArg(args[1], usage, (n) => n >= 0 && n <= 100);
  ctx.stack.sim.control.setAiPagesUsage(brand.id, { percentageUsed: pct });
  ctx.state.staged.add(brand.name);
  ctx.io.print(
    `AI Pages usage of ${ctx.io.style.bold(brand.name)} is now ${pct} % of this month's requests. Alerts fire at 80, 90 and 100 % by default (each once per billing period): ${await nextStep(ctx, brand)}.`,
  );
}

export async function runTraffic(ctx: ConsoleContext, args: readonly string[]): Promise<void> {
  const usage = ':traffic <brand> <factor, e.g. 0.4 for a 60 % fall, 1 for normal>';
  const brand = brandArg(args[0], usage);
  const factor = numberArg(args[1], usage, (n) => n >= 0);
  // The crawler alert compares the 7 whole days to yesterday with the 7 before
  // (jobs/crawler-range.ts): scaled from 7 days before today on, that comparison shows
  // exactly the change said here, and today's live figures show it too.
  ctx.stack.sim.control.setCrawlerTraffic(brand.id, { factor, days: 8 });
  ctx.state.staged.add(brand.name);
  const { bold } = ctx.io.style;
  if (factor === 1) {
    ctx.io.print(`Crawler visits of ${bold(brand.name)} are back to normal.`);
    return;
  }
  // The figure the crawler alert will report: the 7 whole days to yesterday against the 7
  // before, as the service counts them (the days before the change vary on their own, so
  // it is not simply the factor).
  const today = epochDay(ctx.stack.deps.clock.now());
  const visits = (weeksBack: number) =>
    ctx.stack.sim.control.crawlerVisits(brand.id, today - 7 * (weeksBack + 1), today - 7 * weeksBack - 1);
  const change = signedPercentText(percentChange(visits(1), visits(0)));
  const from = dateOfDay(today - 7);
  ctx.io.print(
    `Crawler visits of ${bold(brand.name)} are now ×${factor} from ${from} on: the 7 whole days to yesterday, which the crawler alert compares with the 7 days before, are ${change}. A fall of 40 % or more alerts by default: ${(await nextStep(ctx, brand)).replace('see them', 'see it')}.`,
  );
}
