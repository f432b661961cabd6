/**
 * The dependencies as one command or click sees them: every API call it makes, however
 * deep (subcommands, the brand resolver, the brand cache's fetch), goes in the interactive
 * lane ranked by when the request arrived, so replies come back in arrival order even when
 * a command needs two calls. Only that API view is request-scoped (`RequestApi`); the rest
 * are the service's narrow SlackDeps, shared.
 *
 * This is the one way a Slack request chooses its lane: every router (commands, actions,
 * App Home, modal submissions, type-ahead options, workflow steps) hands its handler
 * `requestDeps(...)`, and handlers name no lane. Only work that outlives the reply says
 * otherwise, itself: the ideas follow-up waits in the background lane.
 */

import type { BrandCache } from '../../api/brand-cache.js';
import type { VisibilityApi } from '../../api/visibility-api.js';
import { withCallDefaults } from '../../api/with-call-defaults.js';
import type { SlackDeps } from './slack-deps.js';

/** The API as one request sees it, and the brand cache fetching through it. */
interface RequestApi {
  api: VisibilityApi;
  /** The service's one cache (one list, one fetch in flight), fetching through `api`. */
  brandCache: BrandCache;
}

function requestApi(deps: Pick<SlackDeps, 'api' | 'brandCache'>, arrivedAtMs: number): RequestApi {
  const api = withCallDefaults(deps.api, { lane: 'interactive', priority: arrivedAtMs });
  return { api, brandCache: deps.brandCache.withApi(api) };
}

/** A handler's deps for one request: the service's SlackDeps with the request's API view. */
export function requestDeps(deps: SlackDeps, arrivedAtMs: number): SlackDeps {
  return { ...deps, ...requestApi(deps, arrivedAtMs) };
}
