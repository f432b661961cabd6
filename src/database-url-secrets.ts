/**
 * What in a DATABASE_URL is secret, in one place for the three that cut it out of text:
 * the logger (config.ts secretsOf), the store's Postgres errors and the job engine's
 * reports. The password as written (percent-encoded) and decoded, and the whole URL: a
 * password too short to be recognised on its own is still caught inside the URL.
 */

/** A secret as written (percent-encoded) and decoded. */
function bothForms(secret: string): string[] {
  try {
    return [secret, decodeURIComponent(secret)];
  } catch {
    // Malformed escapes: the secret is only known as written.
    return [secret];
  }
}

/**
 * The URL's secrets, longest first: the password in its user part or in its query
 * (`?password=`, which pg reads too); none for a URL without one, the whole text for one
 * that is not a URL.
 */
export function databaseUrlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL (pg also takes key=value strings): only the whole string is known.
    return [url];
  }
  const inQuery = /[?&]password=([^&#]*)/.exec(url)?.[1] ?? '';
  const passwords = [parsed.password, inQuery].filter((p) => p !== '');
  if (passwords.length === 0) return [];
  return [...new Set([url, ...passwords.flatMap(bothForms)])].sort((a, b) => b.length - a.length);
}

/** `text` with every one of `secrets` replaced by `mark` (longest first, so a URL goes whole). */
export function cutSecrets(text: string, secrets: readonly string[], mark: string): string {
  return [...secrets]
    .filter((s) => s.length > 0)
    .sort((a, b) => b.length - a.length)
    .reduce((out, s) => out.split(s).join(mark), text);
}
