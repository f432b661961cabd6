/** One market as a mrkdwn line: "*Germany* (DE) · primary · _DACH launch_". */
import type { Market } from '../../../api/schemas/index.js';
import { countryName } from '../../../countries.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';

export function marketLine(m: Market): Mrkdwn {
  const code = escapeMrkdwn(m.location.toUpperCase());
  const parts = [mrkdwn`*${escapeMrkdwn(countryName(m.location))}* (${code})`];
  if (m.is_primary) parts.push(mrkdwn`:star: primary`);
  if (m.active === false) parts.push(mrkdwn`_inactive_`);
  if (m.market_name)
    parts.push(mrkdwn`_${escapeMrkdwn(truncatePlain(m.market_name.replace(/[_*~`]/g, ''), 100))}_`);
  return joinMrkdwn(parts, mrkdwn` · `);
}

/** Primary first, then by country name: the order people scan a list of markets in. */
export function sortMarkets(markets: readonly Market[]): Market[] {
  return [...markets].sort(
    (a, b) =>
      Number(b.is_primary) - Number(a.is_primary) ||
      countryName(a.location).localeCompare(countryName(b.location)),
  );
}
