/**
 * docs/api.md §4.2: a refresh while a run is in progress "answers `already_generating`", the
 * exact shape not shown. Seen as a 200 `{"status":"already_generating"}` and as 409/4xx
 * bodies of any of the three error shapes, carrying it in `status`, `code` or the message
 * ("Content ideas are already generating").
 */
import type { ServiceErrorBody } from './error-message.js';

const ALREADY_GENERATING = /already[\s_-]*(being[\s_-]*)?generat(ing|ed)/i;

export function saysAlreadyGenerating(body: ServiceErrorBody): boolean {
  return [body.status, body.code, body.message].some((s) => s !== undefined && ALREADY_GENERATING.test(s));
}
