/**
 * A stable, non-reversible name for an API key, used as the key of its rate-limit rows
 * and other storage: the key itself must never be written anywhere (docs/runtime-contract.md:
 * secrets are never printed). 16 hex characters (64 bits) keep distinct keys apart in practice.
 */

export function hashApiKey(key: string): string {
  // node:crypto on first use: a run that calls no API never loads it.
  return process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update(key, 'utf8')
    .digest('hex')
    .slice(0, 16);
}
