/**
 * The command text a "Share in channel" button re-runs: the brand by id (the re-run finds
 * the same brand whatever the channel's default), then the words and flags as typed.
 */
const quote = (s: string) => (s === '' || /[\s"']/.test(s) ? `"${s.replace(/"/g, "'")}"` : s);

export function commandText(
  name: string,
  brandId: string,
  words: readonly string[] = [],
  flags: Readonly<Record<string, string | number | boolean | undefined>> = {},
): string {
  const flagParts = Object.entries(flags).flatMap(([k, v]) =>
    v === undefined || v === false ? [] : v === true ? [`--${k}`] : [`--${k}`, quote(String(v))],
  );
  return [name, brandId, ...words.map(quote), ...flagParts].join(' ');
}
