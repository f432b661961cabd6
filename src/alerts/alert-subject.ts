import { keyPart } from './key-part.js';
import type { Alert } from './types.js';

/**
 * What an alert is about, the same each time the same thing goes wrong again: the kind and
 * the page for citation alerts (the same URL lost again), the kind alone for a brand's
 * crawler and AI Pages alerts. Unlike the alert's key it carries no time or version, so a
 * later alert with the same subject is a recurrence of the earlier one.
 */
export function alertSubject(a: Pick<Alert, 'kind' | 'open'>): string {
  const url = a.open.params?.['url'];
  return url ? `${a.kind}:${keyPart(url)}` : a.kind;
}
