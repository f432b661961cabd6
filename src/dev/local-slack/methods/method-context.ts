/**
 * What a Web API method handler sees, and the `{ok:false}` shape Slack answers with
 * (HTTP 200: https://docs.slack.dev/apis/web-api/#evaluating-responses).
 */
import type { Clock } from '../../../clock.js';
import { toResponseMetadataMessages } from '../validate-blocks.js';
import type { Workspace } from '../workspace.js';

export type ApiResult = Record<string, unknown> & { ok: boolean };

export interface MethodContext {
  ws: Workspace;
  clock: Clock;
}

export type MethodHandler = (args: Record<string, unknown>, ctx: MethodContext) => ApiResult;

/** `{ok:false,error}`; validation messages go where Slack puts them (`errors` and `response_metadata`). */
export function slackError(error: string, messages: readonly string[] = []): ApiResult {
  if (messages.length === 0) return { ok: false, error };
  return {
    ok: false,
    error,
    errors: [...messages],
    response_metadata: { messages: toResponseMetadataMessages(messages) },
  };
}
