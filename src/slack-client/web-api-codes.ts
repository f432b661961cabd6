/**
 * The string values of @slack/web-api's `ErrorCode` and `LogLevel` enums, as constants of
 * our own: reading an enum means loading the whole client package (and @slack/types with
 * it), which `run-job` with nothing to deliver should not pay for. `satisfies` ties each
 * value to the enum member it stands for, so a change in the package fails the type check.
 */
import type { ErrorCode, LogLevel } from '@slack/web-api';

export const SLACK_ERROR_CODE = {
  RequestError: 'slack_webapi_request_error' satisfies `${ErrorCode.RequestError}`,
  HTTPError: 'slack_webapi_http_error' satisfies `${ErrorCode.HTTPError}`,
  PlatformError: 'slack_webapi_platform_error' satisfies `${ErrorCode.PlatformError}`,
  RateLimitedError: 'slack_webapi_rate_limited_error' satisfies `${ErrorCode.RateLimitedError}`,
} as const;

export const SLACK_LOG_LEVEL = {
  DEBUG: 'debug' as LogLevel.DEBUG,
  INFO: 'info' as LogLevel.INFO,
  WARN: 'warn' as LogLevel.WARN,
  ERROR: 'error' as LogLevel.ERROR,
} as const;
