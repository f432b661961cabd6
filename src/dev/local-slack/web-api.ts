/**
 * The Web API dispatcher: authenticates, applies queued faults, runs the method and records
 * the call. Slack answers errors as HTTP 200 `{ok:false,error}` and rate limits as HTTP 429
 * with `Retry-After` in seconds (https://docs.slack.dev/apis/web-api/rate-limits).
 */
import type { Clock } from '../../clock.js';
import type { FaultPlan } from './fault-plan.js';
import { type ApiResult, slackError, WEB_API_METHODS } from './methods/index.js';
import type { ParsedApiRequest } from './parse-api-args.js';
import type { RecordedCall } from './types.js';
import type { Workspace } from './workspace.js';

interface WebApiAnswer {
  status: number;
  headers: Record<string, string>;
  json: ApiResult;
  /** Drop the connection instead of answering (the call already took effect). */
  drop: boolean;
  /** Never answer (the call already took effect); the response stays open until close. */
  stall: boolean;
}

export class WebApi {
  readonly calls: RecordedCall[] = [];

  constructor(
    private readonly ws: Workspace,
    private readonly clock: Clock,
    private readonly faults: FaultPlan,
    private readonly botToken: string,
  ) {}

  handle(method: string, request: ParsedApiRequest): WebApiAnswer {
    const answer = this.answer(method, request);
    this.calls.push({
      at: this.clock.now(),
      method,
      args: request.args,
      token: request.token,
      response: answer.json,
      status: answer.status,
      dropped: answer.drop,
      stalled: answer.stall,
    });
    return answer;
  }

  private answer(method: string, { args, token, error }: ParsedApiRequest): WebApiAnswer {
    const reply = (json: ApiResult, status = 200, headers: Record<string, string> = {}): WebApiAnswer => ({
      status,
      headers,
      json,
      drop: false,
      stall: false,
    });
    const handler = WEB_API_METHODS[method];
    if (!handler) return reply(slackError('unknown_method'));
    if (token === undefined || token === '') return reply(slackError('not_authed'));
    // A custom step's run has a token of its own (function_executed's bot_access_token).
    if (token !== this.botToken && !this.ws.functions.acceptsToken(token))
      return reply(slackError('invalid_auth'));
    const limited = this.faults.take(method, ['rate_limited']);
    if (limited?.kind === 'rate_limited') {
      return reply(slackError('ratelimited'), 429, { 'retry-after': String(limited.retryAfterSec) });
    }
    const failed = this.faults.take(method, ['error']);
    if (failed?.kind === 'error') return reply(slackError(failed.error));
    if (error) return reply(slackError(error));
    const json = handler(args, { ws: this.ws, clock: this.clock });
    const after = this.faults.take(method, ['drop_after_accept', 'stall_after_accept']);
    return {
      ...reply(json),
      drop: after?.kind === 'drop_after_accept',
      stall: after?.kind === 'stall_after_accept',
    };
  }
}
