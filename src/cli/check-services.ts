/**
 * `check`'s lines for the two services: the Brand Visibility API (GET /get-brands with
 * the key) and Slack (auth.test with the bot token). A failure names its cause in words:
 * the host's name does not resolve (DNS), nothing answers (unreachable), TLS failed, the
 * API refused the key, Slack refused the token, or what else the service said. Only hosts
 * and the services' own codes are printed, never a key or a token.
 */
import { ApiErrorCode, isApiError } from '../api/errors.js';
import type { VisibilityApi } from '../api/visibility-api.js';
import { DEFAULTS } from '../config.js';
import { explainError } from '../messages/explain-error.js';
import { networkFailure } from '../network-failure.js';
import { mrkdwnToTerminal } from '../terminal/mrkdwn-to-terminal.js';
import { createStyle } from '../terminal/style.js';

export interface Verdict {
  ok: boolean;
  line: string;
}

/** Check lines go to a terminal or a log: no colours. */
const PLAIN = createStyle(false);

export const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid URL';
  }
};

/**
 * DNS, unreachable or TLS, with what to check; undefined for any other failure. A URL the
 * operator set is worth checking; Slack's default one is not, the network is.
 */
function connectionTrouble(err: unknown, host: string, urlVariable: string | undefined): string | undefined {
  const failure = networkFailure(err);
  if (!failure) return undefined;
  const name = host.replace(/:\d+$/, '');
  switch (failure.kind) {
    case 'dns':
      return `DNS cannot find ${name}: check ${urlVariable ? `the host name in ${urlVariable} and ` : ''}this machine's DNS`;
    case 'unreachable':
      return `unreachable: ${failure.words}; check ${urlVariable ? `${urlVariable}, that the service runs, ` : ''}that this machine can reach ${name} (a firewall or a proxy in the way?)`;
    case 'tls':
      return `TLS failed: ${failure.words}`;
  }
}

function apiFailure(err: unknown, apiUrl: string): string {
  const trouble = connectionTrouble(err, hostOf(apiUrl), 'VISIBILITY_API_URL');
  if (trouble) return trouble;
  if (isApiError(err)) {
    const status = err.status ? ` (HTTP ${err.status})` : '';
    if (err.code === ApiErrorCode.Unauthorized || err.code === ApiErrorCode.Forbidden)
      return `the API refused the key${status}: check VISIBILITY_API_KEY`;
    if (err.code === ApiErrorCode.NotFound || err.code === ApiErrorCode.InvalidResponse)
      return `something answers there, but not as the Brand Visibility API${status}: check the address in VISIBILITY_API_URL (e.g. a missing /v1)`;
    return `${mrkdwnToTerminal(explainError(err).message, PLAIN)}${status}`;
  }
  return err instanceof Error ? err.message : String(err);
}

export async function checkApi(api: VisibilityApi, apiUrl: string): Promise<Verdict> {
  try {
    const { brands } = await api.getBrands({}, { lane: 'interactive' });
    const names = brands.slice(0, 5).map((b) => `"${b.name}"`);
    return {
      ok: true,
      line: `API key works: it sees ${brands.length} brand${brands.length === 1 ? '' : 's'}${names.length ? `: ${names.join(', ')}${brands.length > 5 ? ', …' : ''}` : ''}`,
    };
  } catch (err) {
    return { ok: false, line: `Brand Visibility API at ${hostOf(apiUrl)}: ${apiFailure(err, apiUrl)}` };
  }
}

/** auth.test's answers that mean the token itself is refused. */
const TOKEN_REFUSED = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'not_allowed_token_type',
]);

interface SlackErrorShape {
  data?: { error?: unknown };
  statusCode?: unknown;
}

function slackFailure(err: unknown, slackApiUrl: string): string {
  const urlVariable = slackApiUrl === DEFAULTS.SLACK_API_URL ? undefined : 'SLACK_API_URL';
  const trouble = connectionTrouble(err, hostOf(slackApiUrl), urlVariable);
  if (trouble) return trouble;
  const e = (typeof err === 'object' && err !== null ? err : {}) as SlackErrorShape;
  const code = e.data?.error;
  if (typeof code === 'string' && TOKEN_REFUSED.has(code))
    return `Slack refused the token (${code}): check SLACK_BOT_TOKEN, the Bot User OAuth Token (xoxb-…) of the installed app`;
  if (typeof code === 'string') return `Slack answered ${code}`;
  if (typeof e.statusCode === 'number')
    return `something answers there, but not as Slack's Web API (HTTP ${e.statusCode}): check SLACK_API_URL`;
  return err instanceof Error ? err.message : String(err);
}

/** The part of the Web API client check uses. */
interface AuthTester {
  auth: { test(): Promise<{ team?: string; team_id?: string; user?: string; user_id?: string }> };
}

export async function checkSlack(web: AuthTester, slackApiUrl: string): Promise<Verdict> {
  try {
    const auth = await web.auth.test();
    return {
      ok: true,
      line: `Slack auth.test: team "${auth.team ?? '?'}" (${auth.team_id ?? '?'}), bot user @${auth.user ?? '?'} (${auth.user_id ?? '?'})`,
    };
  } catch (err) {
    return {
      ok: false,
      line: `Slack auth.test at ${hostOf(slackApiUrl)}: ${slackFailure(err, slackApiUrl)}`,
    };
  }
}
