/**
 * Cuts text to a Slack length limit without breaking what Slack renders: the cut never
 * lands inside a `<url|label>` link or mention, an `&amp;` entity or a surrogate pair, and
 * a `*bold*`, `_italic_`, `~strike~` or code span left open by the cut is closed after the
 * "…", so the rest of the message does not turn bold or monospace.
 */
export const ELLIPSIS = '…';

interface Span {
  start: number;
  /** exclusive */
  end: number;
  /** The first cut position at which the span can be closed by `closer`; Infinity = never. */
  closeFrom: number;
  closer: string;
}

const FORMAT_MARKERS = new Set(['*', '_', '~']);
const ENTITY = /^&(?:[a-z]{2,8}|#\d{1,7}|#x[0-9a-f]{1,6});/i;

/**
 * `<…>` links and mentions. Slack reads them before any formatting, inside code too, so
 * they are found first and never cut inside their URL.
 */
function scanLinks(text: string): Span[] {
  const spans: Span[] = [];
  let i = text.indexOf('<');
  while (i !== -1) {
    const close = text.indexOf('>', i + 1);
    if (close === -1) break;
    const reopen = text.indexOf('<', i + 1);
    if (reopen !== -1 && reopen < close) {
      i = reopen;
      continue;
    }
    const pipe = text.indexOf('|', i);
    // A link's label may be shortened ("<url|Acme Anal…>"); its URL or a mention may not.
    const closeFrom = pipe > i && pipe < close ? pipe + 2 : Number.POSITIVE_INFINITY;
    spans.push({ start: i, end: close + 1, closeFrom, closer: '>' });
    i = text.indexOf('<', close + 1);
  }
  return spans;
}

/** Links, then code and formatting pairs outside links, paired left to right the way Slack reads them. */
function scan(text: string): Span[] {
  const links = scanLinks(text);
  const spans: Span[] = [...links];
  const linkAt = new Map(links.map((l) => [l.start, l.end]));
  const open = new Map<string, number>();
  let i = 0;
  while (i < text.length) {
    const linkEnd = linkAt.get(i);
    if (linkEnd !== undefined) {
      i = linkEnd;
      continue;
    }
    const ch = text[i]!;
    if (ch === '`') {
      const fence = text.startsWith('```', i) ? text.indexOf('```', i + 3) : -1;
      if (fence !== -1) {
        spans.push({ start: i, end: fence + 3, closeFrom: i + 4, closer: '```' });
        i = fence + 3;
        continue;
      }
      const close = text.indexOf('`', i + 1);
      if (close !== -1) {
        spans.push({ start: i, end: close + 1, closeFrom: i + 2, closer: '`' });
        i = close + 1;
        continue;
      }
    } else if (FORMAT_MARKERS.has(ch)) {
      const opener = open.get(ch);
      if (opener === undefined) open.set(ch, i);
      else {
        spans.push({ start: opener, end: i + 1, closeFrom: opener + 2, closer: ch });
        open.delete(ch);
      }
    }
    i += 1;
  }
  return spans;
}

/** Moves `cut` back so it does not split an entity or a surrogate pair. */
function avoidSplitAtoms(text: string, cut: number): number {
  let c = cut;
  const code = text.charCodeAt(c - 1);
  if (code >= 0xd800 && code <= 0xdbff) c -= 1;
  const amp = text.lastIndexOf('&', c - 1);
  if (amp !== -1 && c - amp < 10) {
    const m = ENTITY.exec(text.slice(amp, amp + 10));
    if (m && amp + m[0].length > c) c = amp;
  }
  return c;
}

/** `text` if it fits in `max` UTF-16 units, else a prefix + "…" + closers that fits. */
export function truncateMrkdwn<T extends string>(text: T, max: number): T {
  if (text.length <= max) return text;
  if (max <= ELLIPSIS.length) return ELLIPSIS.slice(0, Math.max(0, max)) as T;
  const spans = scan(text);
  let cut = max - ELLIPSIS.length;
  for (;;) {
    cut = avoidSplitAtoms(text, cut);
    const c = cut;
    const inside = spans.filter((s) => s.start < c && c < s.end);
    const blocker = inside.find((s) => c < s.closeFrom);
    if (blocker) {
      cut = blocker.start;
      continue;
    }
    const closers = inside
      .sort((a, b) => b.start - a.start)
      .map((s) => s.closer)
      .join('');
    const kept = text.slice(0, cut).trimEnd();
    if (kept.length + ELLIPSIS.length + closers.length <= max) return (kept + ELLIPSIS + closers) as T;
    cut = Math.min(cut - 1, max - ELLIPSIS.length - closers.length);
  }
}

/**
 * Plain text (headers, buttons, titles): only surrogate pairs and entities need care.
 * Generic so that cutting escaped text (`Mrkdwn`) keeps it escaped: the cut never halves
 * an `&amp;`, and "…" is not markup.
 */
export function truncatePlain<T extends string>(text: T, max: number): T {
  if (text.length <= max) return text;
  if (max <= ELLIPSIS.length) return ELLIPSIS.slice(0, Math.max(0, max)) as T;
  let cut = avoidSplitAtoms(text, max - ELLIPSIS.length);
  // Never leave half a `<…>` link or mention open: text joined after it could close it.
  const open = text.lastIndexOf('<', cut - 1);
  if (open !== -1 && text.lastIndexOf('>', cut - 1) < open) cut = open;
  return (text.slice(0, cut).trimEnd() + ELLIPSIS) as T;
}

/** Identifiers (action_id, block_id, values): cut hard, no ellipsis, never split a pair. */
export function truncateId(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}
