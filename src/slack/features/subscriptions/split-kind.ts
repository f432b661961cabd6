/**
 * `subscribe Acme Analytics digest`: the brand (quoted or not) and, last, what to
 * subscribe to. Without a kind the command means both alerts and the digest.
 */
import type { SubscriptionKind } from '../../../use-cases/subscribe-with-baseline.js';

const KINDS: Readonly<Record<string, SubscriptionKind>> = {
  alerts: 'alerts',
  alert: 'alerts',
  digest: 'digest',
  digests: 'digest',
};

export function splitKind(positional: readonly string[]): {
  brandToken: string | undefined;
  kind: SubscriptionKind | undefined;
} {
  const last = positional.at(-1);
  const kind = last === undefined ? undefined : KINDS[last.toLowerCase()];
  const brandWords = kind ? positional.slice(0, -1) : positional;
  return { brandToken: brandWords.length > 0 ? brandWords.join(' ') : undefined, kind };
}
