/**
 * The dependencies as one command or click sees them: every API call it makes, however
 * deep (subcommands, the brand resolver, the brand cache's fetch), goes in the interactive
 * lane ranked by when the request arrived, so replies come back in arrival order even when
 * a command needs two calls. Everything else is the service's shared deps.
 */

import { withCallDefaults } from '../api/with-call-defaults.js';
import type { AppDeps } from '../app-deps.js';

export function requestDeps(deps: AppDeps, arrivedAtMs: number): AppDeps {
  const api = withCallDefaults(deps.api, { lane: 'interactive', priority: arrivedAtMs });
  return { ...deps, api, brandCache: deps.brandCache.withApi(api) };
}
