import { describe, expect, it } from 'vitest';
import { NetworkError } from '../src/api/errors.js';
import { networkFailure } from '../src/network-failure.js';

const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('networkFailure', () => {
  it.each([
    ['ENOTFOUND', 'dns'],
    ['EAI_AGAIN', 'dns'],
    ['ECONNREFUSED', 'unreachable'],
    ['UND_ERR_CONNECT_TIMEOUT', 'unreachable'],
    ['EHOSTUNREACH', 'unreachable'],
    ['ECONNRESET', 'unreachable'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
    ['CERT_HAS_EXPIRED', 'tls'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls'],
    ['ERR_SSL_SOMETHING_NEW', 'tls'],
  ])('%s is %s', (code, kind) => {
    expect(networkFailure(coded(code))).toMatchObject({ kind, code });
  });

  it('finds the code where each client puts it', () => {
    const fetchFailed = new TypeError('fetch failed', {
      cause: coded('ENOTFOUND', 'getaddrinfo ENOTFOUND x'),
    });
    expect(networkFailure(fetchFailed)?.kind).toBe('dns');
    // @slack/web-api's RequestError keeps what fetch threw as `original`.
    const slack = Object.assign(new Error('A request error occurred: fetch failed'), {
      code: 'slack_webapi_request_error',
      original: fetchFailed,
    });
    expect(networkFailure(slack)).toMatchObject({ kind: 'dns', code: 'ENOTFOUND' });
    const api = new NetworkError('Could not reach the API', { cause: coded('ECONNREFUSED') });
    expect(networkFailure(api)).toMatchObject({
      kind: 'unreachable',
      words: 'nothing accepts connections there (connection refused)',
    });
  });

  it('says nothing about other failures, and survives a cause that loops', () => {
    expect(networkFailure(coded('slack_webapi_platform_error'))).toBeUndefined();
    expect(networkFailure(new Error('boom'))).toBeUndefined();
    expect(networkFailure('a string')).toBeUndefined();
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(networkFailure(loop)).toBeUndefined();
  });
});
