/**
 * A dedupe-key segment from free text (usually a URL). Long values are hashed so keys stay
 * short enough for Slack metadata and indexes; short ones stay readable for operators.
 */
export function keyPart(value: string): string {
  if (value.length <= 200 && !/[\s:]/.test(value.replace(/^https?:\/\//, ''))) return value;
  // node:crypto on first use: a run with no alerts never loads it.
  return `h_${process.getBuiltinModule('node:crypto').createHash('sha1').update(value).digest('hex')}`;
}
