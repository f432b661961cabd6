/**
 * One usage figure, one number: the App Home and the `aipages` reply read the same AI Pages
 * usage as the same whole percent (both used to draw their own bar, one flooring and one
 * rounding, so 12.6 % showed as 12 % on the Home tab and 13 % in the reply).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { brandKit } from './brand-test-kit.js';
import { type Harness, startHarness } from './service-harness.js';

let h: Harness;
const k = brandKit(() => h);
const { acme } = SEED_BRANDS;
const USER = 'U0LOCALUSR';

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

it('shows the same AI Pages percent on the App Home as in the aipages reply', async () => {
  // 12.6 % is where a floored and a rounded percent part ways (12 vs 13).
  h.sim.control.setAiPagesUsage(acme.id, {
    percentageUsed: 12.6,
    requestsThisMonth: 12_600,
    requestsLimit: 100_000,
  });
  await h.slack.event(h.appUrl, { type: 'app_home_opened', user: USER, tab: 'home', channel: 'D0LOCALUSR' });
  const view = await h.slack.waitFor(() => h.slack.homeView(USER), 5000);
  const acmeSection = JSON.stringify(view.blocks.find((b) => JSON.stringify(b).includes(acme.name)));
  const onHome = /AI Pages usage: `[▰▱]+ (\d+) %`/.exec(acmeSection)?.[1];

  const { reply } = await k.command('aipages Acme Analytics');
  const onReply = /AI Pages usage\* {2}`[▰▱]+ (\d+) %`/.exec(JSON.stringify(reply.blocks))?.[1];
  const inFallback = /AI Pages usage (\d+) % of the monthly limit/.exec(String(reply.text))?.[1];

  expect(onHome).toBe('12');
  expect(onReply).toBe(onHome);
  expect(inFallback).toBe(onHome);
});
