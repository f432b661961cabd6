/**
 * The fetch every Slack client of ours uses (Web API calls and Bolt's respond() to a
 * response_url): it counts each call by method and outcome, and Slack's
 * `200 {ok:false, error}` answers by their error code, without changing the response.
 */
import type { FetchFunction } from '@slack/web-api';
import type { Metrics } from '../metrics.js';

function methodOf(url: string, apiBase: string): string {
  if (!url.startsWith(apiBase)) return 'response_url';
  const method = url.slice(apiBase.length).split(/[?#]/)[0] ?? '';
  return /^[a-zA-Z.]+$/.test(method) ? method : 'other';
}

export function instrumentedFetch(
  metrics: Pick<Metrics, 'observeSlackCall'>,
  slackApiUrl: string,
  base: FetchFunction = globalThis.fetch,
): FetchFunction {
  const apiBase = slackApiUrl.endsWith('/') ? slackApiUrl : `${slackApiUrl}/`;
  return async (url, init) => {
    const method = methodOf(String(url), apiBase);
    let res: Awaited<ReturnType<FetchFunction>>;
    try {
      res = await base(url, init);
    } catch (err) {
      metrics.observeSlackCall(method, 'network_error');
      throw err;
    }
    if (res.status === 429) metrics.observeSlackCall(method, 'rate_limited', 'ratelimited');
    else if (!res.ok) metrics.observeSlackCall(method, 'http_error', `http_${res.status}`);
    else if (method === 'response_url' || !('clone' in res)) metrics.observeSlackCall(method, 'ok');
    else {
      const body = (await (res as Response)
        .clone()
        .json()
        .catch(() => undefined)) as { ok?: unknown; error?: unknown } | undefined;
      if (body?.ok === false)
        metrics.observeSlackCall(method, 'slack_error', String(body.error ?? 'unknown'));
      else metrics.observeSlackCall(method, 'ok');
    }
    return res;
  };
}
