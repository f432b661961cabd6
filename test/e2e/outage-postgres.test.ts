/**
 * Postgres stopped under a running `serve` (its own process, on a Postgres server of the
 * test's own) and started again: the scenario in outage-harness.ts. Every command and
 * click sent meanwhile is answered that nothing was changed (how long that takes against
 * Slack's 3 s: `npm run bench -- outage`), /healthz stays 200 while /readyz drains the
 * replica, and afterwards nothing refused happened and the alert that fell due meanwhile
 * is posted once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutageSetting, postgresOutage, runOutageScenario } from './outage-harness.js';

let setting: OutageSetting;

beforeAll(async () => {
  setting = await postgresOutage('COUTAGEPG');
}, 120_000);

afterAll(async () => {
  await setting?.close();
});

describe('Postgres stopped under a running serve', () => {
  it('answers every command and click that nothing was changed, drains the replica, and recovers with nothing lost or doubled', async () => {
    const answered = await runOutageScenario(setting.world);
    expect(answered.map((a) => a.what)).toEqual([
      'brands',
      'subscriptions',
      'subscribe',
      'aliases add',
      'Unsubscribe click',
      'help',
      'status',
    ]);
  }, 90_000);
});
