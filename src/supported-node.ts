/**
 * The Node.js lines this release runs on, and the one sentence an unsupported Node gets
 * instead of a SyntaxError from deep inside an import (main.ts asks before it loads
 * anything else). This file is parsed by whatever Node starts the CLI, however old: it
 * imports nothing and keeps to syntax old lines understand (no `?.`, no `??`).
 * package.json "engines" says the same in npm's words; a test holds the two together.
 */

interface NodeLine {
  major: number;
  /** The first minor release of the line that works (22.19: better-sqlite3 and undici need it). */
  fromMinor: number;
  /** Later major lines count too (the newest line and whatever follows it). */
  andLater: boolean;
}

const SUPPORTED_NODE_LINES: readonly NodeLine[] = [
  { major: 22, fromMinor: 19, andLater: false },
  { major: 24, fromMinor: 0, andLater: false },
  { major: 26, fromMinor: 0, andLater: true },
];

const NODE_DOWNLOAD_URL = 'https://nodejs.org/en/download';

function parts(version: string): number[] {
  return version
    .replace(/^v/, '')
    .split(/[.-]/)
    .slice(0, 2)
    .map((p) => Number.parseInt(p, 10));
}

export function isSupportedNode(version: string): boolean {
  const [major = Number.NaN, minor = Number.NaN] = parts(version);
  return SUPPORTED_NODE_LINES.some(
    (line) => (major === line.major && minor >= line.fromMinor) || (line.andLater && major > line.major),
  );
}

/** The lines in words: "22 (22.19 or later), 24, or 26 or later". */
function supportedLinesInWords(): string {
  const words = SUPPORTED_NODE_LINES.map(
    (line) =>
      `${line.major}${line.fromMinor > 0 ? ` (${line.major}.${line.fromMinor} or later)` : ''}${line.andLater ? ' or later' : ''}`,
  );
  return words.length > 1
    ? `${words.slice(0, -1).join(', ')}, or ${words[words.length - 1]}`
    : words.join('');
}

/** The sentence for an unsupported Node (undefined for a supported one). */
export function unsupportedNodeMessage(version: string): string | undefined {
  if (isSupportedNode(version)) return undefined;
  return `visibility-bot needs Node.js ${supportedLinesInWords()}, but this is Node.js ${version.replace(/^v/, '')}: install a supported version from ${NODE_DOWNLOAD_URL} and run the command again.`;
}

/** The same lines as an npm semver range, as package.json "engines" writes them. */
export function supportedNodeRange(): string {
  return SUPPORTED_NODE_LINES.map((line) =>
    line.andLater ? `>=${line.major}.${line.fromMinor}.0` : `^${line.major}.${line.fromMinor}.0`,
  ).join(' || ');
}
