/**
 * AI Pages usage for the App Home, one request per brand, remembered for a minute: the
 * tab is refreshed each time someone opens it, and several people opening it should not
 * spend the key's rate budget on the same figures. Few requests at a time, so a person
 * running a command meanwhile is not queued behind the whole list. The memory belongs to
 * the running app (keyed by its store: each request sees its own view of the API, but the
 * app's one store), not to the module: two apps in one process (a test run, a replica
 * harness) never see each other's figures.
 */

import { ApiErrorCode, isApiError } from '../../../api/errors.js';
import type { Brand } from '../../../api/schemas/index.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import type { AiPagesGlance } from './home-view.js';

const AI_PAGES_GLANCE_TTL_MS = 60_000;
const CONCURRENCY = 3;

interface AiPagesGlanceLoader {
  load(
    deps: Pick<SlackDeps, 'api' | 'clock' | 'logger' | 'store'>,
    brands: readonly Brand[],
  ): Promise<AiPagesGlance[]>;
}

async function fetchOne(deps: Pick<SlackDeps, 'api' | 'logger'>, brand: Brand): Promise<AiPagesGlance> {
  try {
    const r = await deps.api.getAiPages({ brandId: brand.id });
    if (r.config === null) return { status: 'not_set_up' };
    return {
      status: 'ok',
      enabled: r.config.enabled,
      percentageUsed: r.usage?.percentage_used ?? null,
      resetDate: r.usage?.reset_date ?? null,
    };
  } catch (err) {
    // docs/api.md §4.11: 403 when the plan lacks the AI Pages entitlement.
    if (isApiError(err) && err.code === ApiErrorCode.NoEntitlement) return { status: 'not_included' };
    deps.logger.warn({ err, brandId: brand.id }, 'App Home: AI Pages usage unavailable');
    return { status: 'unavailable' };
  }
}

export function createAiPagesGlanceLoader(ttlMs = AI_PAGES_GLANCE_TTL_MS): AiPagesGlanceLoader {
  const memos = new WeakMap<object, Map<string, { at: number; glance: AiPagesGlance }>>();
  const memoOf = (app: object) => {
    let memo = memos.get(app);
    if (!memo) {
      memo = new Map();
      memos.set(app, memo);
    }
    return memo;
  };
  return {
    async load(deps, brands) {
      const memo = memoOf(deps.store);
      const out: AiPagesGlance[] = new Array(brands.length);
      let next = 0;
      const worker = async () => {
        while (next < brands.length) {
          const i = next;
          next += 1;
          const brand = brands[i]!;
          const hit = memo.get(brand.id);
          if (hit && deps.clock.now() - hit.at < ttlMs) {
            out[i] = hit.glance;
            continue;
          }
          const glance = await fetchOne(deps, brand);
          // A failure is not remembered: the next opening asks again.
          if (glance.status !== 'unavailable') memo.set(brand.id, { at: deps.clock.now(), glance });
          out[i] = glance;
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, brands.length) }, worker));
      return out;
    },
  };
}
