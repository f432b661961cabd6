/**
 * The service's refusals of a form's values (400, 409, a bound broken) belong under the
 * input, where the user can fix them without losing the form; the wording comes from the
 * one place that words errors. Anything else (key rejected, service down) is not about the
 * input and is left to the submission router.
 */
import { ApiErrorCode, isApiError } from '../../api/errors.js';
import { explainError } from '../../messages/explain-error.js';
import { truncatePlain } from '../../messages/truncate-mrkdwn.js';

const ABOUT_THE_INPUT = new Set<string>([
  ApiErrorCode.Conflict,
  ApiErrorCode.BadRequest,
  ApiErrorCode.InvalidParams,
]);

/** Slack shows the errors as plain text: mrkdwn escapes would show as `&amp;`. */
function plain(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/[*`]/g, '');
}

export function inlineServiceError(
  err: unknown,
  blockId: string,
): { errors: Record<string, string> } | undefined {
  if (!isApiError(err) || !ABOUT_THE_INPUT.has(err.code)) return undefined;
  return { errors: { [blockId]: truncatePlain(plain(explainError(err).message), 300) } };
}
