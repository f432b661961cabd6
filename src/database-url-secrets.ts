/**
 * What in a DATABASE_URL is secret, in one place for the three that cut it out of text:
 * the logger (config.ts secretsOf), the store's Postgres errors and the job engine's
 * reports. The password as written (percent-encoded) and decoded, and the whole URL: a
 * password too short to be recognised on its own is still caught inside the URL.
 */

/** The URL's secrets, longest first; none for a URL without a password, the whole text for one that is not a URL. */
export function databaseUrlSecrets(url: string): string[] {
  let password = '';
  try {
    password = new URL(url).password;
  } catch {
    // Not a URL (pg also takes key=value strings): only the whole string is known.
    return [url];
  }
  if (!password) return [];
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // Malformed escapes: the password is only known as written.
  }
  return [...new Set([url, password, decoded])].sort((a, b) => b.length - a.length);
}

/** `text` with every one of `secrets` replaced by `mark` (longest first, so a URL goes whole). */
export function cutSecrets(text: string, secrets: readonly string[], mark: string): string {
  return [...secrets]
    .filter((s) => s.length > 0)
    .sort((a, b) => b.length - a.length)
    .reduce((out, s) => out.split(s).join(mark), text);
}
