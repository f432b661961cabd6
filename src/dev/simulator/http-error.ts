/**
 * Errors the simulated service answers with. docs/api.md §7: the real service's error bodies
 * come in three shapes depending on the deployment and the code path, so the simulator
 * deliberately uses all three: `{error, errors}`, `{type, code, message, param}` and
 * `{detail}` (a string or `{code, message}`). Clients must cope with each.
 */
export class SimHttpError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    super(`HTTP ${status}`);
    this.name = 'SimHttpError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** `{"error": "...", "errors": [...]}`: the validation layer's shape. */
export function errorsShape(status: number, message: string, errors: unknown[] = []): SimHttpError {
  return new SimHttpError(status, { error: message, errors });
}

/** `{"type","code","message","param"}`: the brand-management code path's shape. */
export function typedShape(
  status: number,
  type: string,
  code: string,
  message: string,
  param: string | null = null,
): SimHttpError {
  return new SimHttpError(status, { type, code, message, param });
}

/** `{"detail": "..."}` or `{"detail": {"code","message"}}`: the gateway's shape. */
export function detailShape(
  status: number,
  detail: string | { code: string; message: string },
): SimHttpError {
  return new SimHttpError(status, { detail });
}

/** A query/body parameter broke a bound or is missing (400, `{error, errors}`). */
export function invalidParam(param: string, message: string): SimHttpError {
  return errorsShape(400, `Invalid parameter '${param}': ${message}`, [{ param, message }]);
}
