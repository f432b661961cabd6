/**
 * Turns a response body into a typed value. Unknown fields are tolerated (the schemas are
 * loose objects); a body already of the schema's shape is returned as it is, not copied
 * (unchanged-check.ts); a broken contract becomes InvalidResponseError whose `field` names
 * the first offending path (`ideas.3.opportunity_score`), so the log says what changed.
 */
import type * as z from 'zod/mini';
import { jsonTextMayBeIllFormed, wellFormedValue } from '../well-formed-text.js';
import { InvalidResponseError } from './errors.js';
import { unchangedCheck } from './unchanged-check.js';

/** Parses JSON text; an empty body is `{}` only where the caller allows it (docs/api.md §4.5). */
export function parseJsonBody(text: string, endpoint: string, allowEmpty = false): unknown {
  if (text.trim() === '') {
    if (allowEmpty) return {};
    throw new InvalidResponseError(`${endpoint} returned an empty body where JSON was expected.`, {
      endpoint,
    });
  }
  try {
    const value = JSON.parse(text) as unknown;
    // Made well formed where it enters, so what a job stores is what it compares next run
    // (well-formed-text.ts).
    return jsonTextMayBeIllFormed(text) ? wellFormedValue(value) : value;
  } catch {
    // The SyntaxError is not kept as `cause`: V8 quotes the start of the body in it, and a
    // body may echo request data that must not reach the logs.
    throw new InvalidResponseError(`${endpoint} returned a body that is not valid JSON.`, { endpoint });
  }
}

export function parseResponse<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
  endpoint: string,
): z.output<S> {
  // The JSON itself when zod's copy of it would be equal (unchanged-check.ts).
  if (unchangedCheck(schema)(value)) return value as z.output<S>;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
  // zod/mini carries no message locale (it would load at every start): the expected type is said here.
  const what =
    issue?.code === 'invalid_type' ? `expected ${issue.expected}` : (issue?.message ?? 'unexpected shape');
  throw new InvalidResponseError(
    `${endpoint} returned an unexpected response: ${field ?? 'the body'}: ${what}.`,
    { endpoint, field, cause: result.error },
  );
}
