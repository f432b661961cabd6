/**
 * Web API arguments as Slack reads them: form-encoded or JSON bodies plus query-string
 * arguments, the token from `Authorization: Bearer` or a `token` field. WebClient (and
 * Bolt) send objects such as `blocks`, `metadata` and `view` as JSON strings inside a form
 * body (@slack/web-api `serializeBody`), so those fields are parsed here.
 */

/** Fields whose string values are JSON documents, with Slack's error when they are not. */
const JSON_FIELDS: Record<string, string> = {
  blocks: 'invalid_blocks_format',
  attachments: 'invalid_attachments',
  metadata: 'invalid_metadata_format',
  view: 'invalid_arguments',
  // files.completeUploadExternal: [{id, title}]
  files: 'invalid_arguments',
  // functions.completeSuccess: the step's outputs
  outputs: 'invalid_arguments',
};

export interface ParsedApiRequest {
  args: Record<string, unknown>;
  token: string | undefined;
  /** Slack's error for an unreadable request (`invalid_json`, `invalid_blocks_format`, …). */
  error: string | undefined;
}

export function parseApiArgs(
  rawBody: string,
  contentType: string | undefined,
  query: URLSearchParams,
  authorization: string | undefined,
): ParsedApiRequest {
  const args: Record<string, unknown> = Object.fromEntries(query);
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  let error: string | undefined;
  if (rawBody.length > 0) {
    if (type === 'application/json') {
      try {
        const parsed: unknown = JSON.parse(rawBody);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
          Object.assign(args, parsed);
        else error = 'invalid_json';
      } catch {
        error = 'invalid_json';
      }
    } else if (type === 'application/x-www-form-urlencoded' || type === '') {
      Object.assign(args, Object.fromEntries(new URLSearchParams(rawBody)));
    } else {
      // multipart (file uploads) is not something this bot sends.
      error = 'invalid_form_data';
    }
  }
  for (const [field, parseError] of Object.entries(JSON_FIELDS)) {
    const value = args[field];
    if (typeof value !== 'string') continue;
    try {
      args[field] = JSON.parse(value);
    } catch {
      error ??= parseError;
    }
  }
  const bearer = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const bodyToken = typeof args['token'] === 'string' ? args['token'] : undefined;
  delete args['token'];
  return { args, token: bearer ?? bodyToken, error };
}

/** Slack reads `true`, `1` (and JSON true) as true. */
export function flag(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 1;
}

export function str(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}
