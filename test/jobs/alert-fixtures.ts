/** Real alert messages (the Block Kit builder's output) for relay and action tests. */
import { groupAlerts } from '../../src/alerts/group-alerts.js';
import type { Alert, AlertKind } from '../../src/alerts/types.js';
import { type AlertMessage, buildAlertMessage } from '../../src/messages/alert-message.js';

export function alert(kind: AlertKind, subject: string, brand = { id: 'brand-1', name: 'Acme' }): Alert {
  return {
    kind,
    brandId: brand.id,
    brandName: brand.name,
    key: `${kind}:${brand.id}:${subject}:v1`,
    title: `${kind === 'citation_lost' ? 'Cited page lost' : 'Crawler visits down'}: ${subject}`,
    whatChanged: `${subject} changed since the last run.`,
    before: 'cited',
    after: 'not cited',
    whyItMatters: 'AI answers no longer point readers to this page.',
    whatToDo: 'Check the page and refresh its content.',
    subject,
    open: { view: kind === 'citation_lost' ? 'citations-feed' : 'crawler', params: { url: subject } },
    detectedAtMs: Date.parse('2025-03-01T06:00:00Z'),
  };
}

/** One run's alert message for a brand, as the jobs would enqueue it. */
export function alertMessage(alerts: Alert[]): AlertMessage & { key: string } {
  const group = groupAlerts(alerts)[0]!;
  return { ...buildAlertMessage(group), key: group.key };
}
