/**
 * "12,345": counts in alert and digest text. One shared formatter, because
 * `Number#toLocaleString` builds a new ICU formatter on every call, which is measurable
 * when a run writes thousands of alerts.
 */
const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatCount(n: number): string {
  return COUNT.format(n);
}
