/**
 * Coded errors of the API layer (the bolt-js `ErrorCode` pattern). Every failure of a
 * client call is one of these; unknown throws are normalised at the boundary with `cause`
 * kept. Messages never contain the API key: they are built from status, path and the
 * service's own error text, never from request headers.
 */
export const ApiErrorCode = {
  InvalidParams: 'api_invalid_params',
  BadRequest: 'api_bad_request',
  Unauthorized: 'api_unauthorized',
  Forbidden: 'api_forbidden',
  NoEntitlement: 'api_no_entitlement',
  NotFound: 'api_not_found',
  Conflict: 'api_conflict',
  RateLimited: 'api_rate_limited',
  QuotaExhausted: 'api_quota_exhausted',
  Server: 'api_server',
  Network: 'api_network',
  Timeout: 'api_timeout',
  InvalidResponse: 'api_invalid_response',
  Aborted: 'api_aborted',
} as const;
export type ApiErrorCode = (typeof ApiErrorCode)[keyof typeof ApiErrorCode];

interface ApiErrorDetails {
  status?: number | undefined;
  /** `METHOD /path` of the request, never its query string (it may carry user data). */
  endpoint?: string | undefined;
  /** Human message extracted from the service's error body, when there was one. */
  serviceMessage?: string | undefined;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number | undefined;
  readonly endpoint: string | undefined;
  readonly serviceMessage: string | undefined;

  constructor(code: ApiErrorCode, message: string, details: ApiErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = details.status;
    this.endpoint = details.endpoint;
    this.serviceMessage = details.serviceMessage;
  }
}

/** A parameter broke an docs/api.md bound; nothing was sent. */
export class InvalidParamsError extends ApiError {
  readonly param: string;
  constructor(param: string, message: string) {
    super(ApiErrorCode.InvalidParams, message);
    this.param = param;
  }
}
export class BadRequestError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super(ApiErrorCode.BadRequest, message, details);
  }
}
export class UnauthorizedError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super(ApiErrorCode.Unauthorized, message, details);
  }
}
/** 403 for the key or role (editor-only action on a viewer brand, key rejected). */
export class ForbiddenError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super(ApiErrorCode.Forbidden, message, details);
  }
}
/** 403 on AI Pages: the plan lacks the entitlement (docs/api.md §4.11). */
export class NoEntitlementError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super(ApiErrorCode.NoEntitlement, message, details);
  }
}
export class NotFoundError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super(ApiErrorCode.NotFound, message, details);
  }
}
export class ConflictError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super(ApiErrorCode.Conflict, message, details);
  }
}
export class RateLimitedError extends ApiError {
  readonly retryAfterMs: number | undefined;
  constructor(message: string, details: ApiErrorDetails & { retryAfterMs?: number | undefined }) {
    super(ApiErrorCode.RateLimited, message, details);
    this.retryAfterMs = details.retryAfterMs;
  }
}
/** The key's daily request count is spent; raised before any request is sent. */
export class QuotaExhaustedError extends ApiError {
  /** When the daily count resets (epoch ms). */
  readonly resetAt: number;
  constructor(resetAt: number) {
    super(
      ApiErrorCode.QuotaExhausted,
      `The API key's daily request quota is spent; it resets at ${new Date(resetAt).toISOString()}.`,
    );
    this.resetAt = resetAt;
  }
}
export class ServerError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super(ApiErrorCode.Server, message, details);
  }
}
export class NetworkError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super(ApiErrorCode.Network, message, details);
  }
}
export class TimeoutError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super(ApiErrorCode.Timeout, message, details);
  }
}
/** A response that broke its schema; `field` names the first offending path. */
export class InvalidResponseError extends ApiError {
  readonly field: string | undefined;
  constructor(message: string, details: ApiErrorDetails & { field?: string | undefined }) {
    super(ApiErrorCode.InvalidResponse, message, details);
    this.field = details.field;
  }
}
export class AbortedError extends ApiError {
  constructor(message: string, details: ApiErrorDetails = {}) {
    super(ApiErrorCode.Aborted, message, details);
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}
