/**
 * Postgres stopped under a running `serve` (its own process, on a Postgres server of the
 * test's own) and started again: the scenario in outage-harness.ts. Every command and
 * click sent meanwhile is answered that nothing was changed (how long that takes against
 * Slack's 3 s: `npm run bench -- outage`), /healthz stays 200 while /readyz drains the
 * replica, and afterwards nothing refused happened and the alert that fell due meanwhile
 * is posted once.
 */
import { describeOutage, postgresOutage } from './outage-harness.js';

describeOutage(
  'Postgres stopped under a running serve',
  'answers every command and click that nothing was changed, drains the replica, and recovers with nothing lost or doubled',
  () => postgresOutage('COUTAGEPG'),
);
