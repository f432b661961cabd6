/**
 * Pulls a human message (and a machine code, when there is one) out of an error body.
 * docs/api.md §10: error bodies come in three shapes, by version:
 *   1. `{"error": "...", "errors": [...]}`            (429 uses `{"error": "Rate limit exceeded: …"}`)
 *   2. `{"type", "code", "message", "param"}`
 *   3. `{"detail": "..."}` or `{"detail": {"code", "message"}}`
 * Proxies and load balancers in front of it answer with plain text or HTML pages, so
 * those are reduced to their readable text too.
 */

export interface ServiceErrorBody {
  /** Human text, trimmed and shortened; undefined when the body said nothing useful. */
  message: string | undefined;
  /** Machine code (`code`, `type` or `detail.code`), when the body carried one. */
  code: string | undefined;
  /** A `status` string field of the body (e.g. `already_generating`), when present. */
  status: string | undefined;
}

const MAX_MESSAGE_LENGTH = 300;
const NOTHING: ServiceErrorBody = { message: undefined, code: undefined, status: undefined };

/** Accepts the raw body text, or an already-parsed JSON value. */
export function extractErrorMessage(body: unknown): ServiceErrorBody {
  if (typeof body === 'string') {
    const text = body.trim();
    if (text === '') return NOTHING;
    const json = tryParseJson(text);
    if (json !== undefined) return extractFromJson(json);
    return { ...NOTHING, message: clean(looksLikeHtml(text) ? htmlText(text) : text) };
  }
  return extractFromJson(body);
}

function extractFromJson(value: unknown): ServiceErrorBody {
  if (typeof value === 'string') return { ...NOTHING, message: clean(value) };
  if (!isRecord(value)) return NOTHING;

  const status = stringField(value, 'status');
  let code = stringField(value, 'code');
  let message: string | undefined;

  // Shape 3: {"detail": "..."} | {"detail": {"code","message"}}; FastAPI-style
  // validation details ({"detail": [{"msg": ...}]}) are folded in as well.
  const detail = value['detail'];
  if (typeof detail === 'string') message = detail;
  else if (isRecord(detail)) {
    message = stringField(detail, 'message') ?? stringField(detail, 'msg') ?? stringField(detail, 'error');
    code ??= stringField(detail, 'code');
  } else if (Array.isArray(detail)) message = joinDetails(detail);

  // Shape 1: {"error": "...", "errors": [...]}; `error` is occasionally an object.
  const error = value['error'];
  if (message === undefined) {
    if (typeof error === 'string') message = error;
    else if (isRecord(error)) {
      message = stringField(error, 'message');
      code ??= stringField(error, 'code');
    }
  }
  const details = Array.isArray(value['errors']) ? joinDetails(value['errors']) : undefined;

  // Shape 2: {"type","code","message","param"}.
  const param = stringField(value, 'param');
  if (message === undefined) message = stringField(value, 'message');
  if (message !== undefined && param !== undefined && !message.includes(param)) {
    message = `${message} (parameter ${param})`;
  }
  code ??= stringField(value, 'type');

  if (details !== undefined && details !== '') {
    message =
      message === undefined || message.includes(details) ? (message ?? details) : `${message}: ${details}`;
  }
  // A body with no message at all but a status or code still says something.
  return { message: clean(message ?? status ?? code), code, status };
}

function joinDetails(items: readonly unknown[]): string | undefined {
  const parts = items
    .map((item) => {
      if (typeof item === 'string') return item;
      if (!isRecord(item)) return undefined;
      const text = stringField(item, 'message') ?? stringField(item, 'msg') ?? stringField(item, 'error');
      const field =
        stringField(item, 'field') ??
        stringField(item, 'param') ??
        (Array.isArray(item['loc'])
          ? item['loc'].filter((p) => p !== 'query' && p !== 'body').join('.')
          : undefined);
      if (text === undefined) return undefined;
      return field && !text.includes(field) ? `${field}: ${text}` : text;
    })
    .filter((p): p is string => p !== undefined && p.trim() !== '');
  return parts.length > 0 ? parts.join('; ') : undefined;
}

function looksLikeHtml(text: string): boolean {
  return /^<(!doctype|html|head|body|\?xml)/i.test(text) || /<\/(html|body|h1|p|title)>/i.test(text);
}

/** The <title> (or first <h1>) of an HTML error page, else its visible text. */
function htmlText(html: string): string {
  const pick = (tag: string) => new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`, 'i').exec(html)?.[1];
  const heading = pick('title') ?? pick('h1');
  const text = heading ?? html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ');
  return decodeEntities(text.replace(/<[^>]*>/g, ' '));
}

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function clean(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const oneLine = text.replace(/\s+/g, ' ').trim();
  if (oneLine === '') return undefined;
  return oneLine.length > MAX_MESSAGE_LENGTH ? `${oneLine.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : oneLine;
}

function tryParseJson(text: string): unknown {
  if (!/^[[{"]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const v = record[key];
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}
