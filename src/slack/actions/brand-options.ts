/**
 * Serves the type-ahead brand selects (views/brand-select.ts and the "Which brand?"
 * picker): Slack sends a signed block_suggestion to /slack/events with what was typed so
 * far, and the answer is the options themselves, within Slack's 3 s. Options come from the
 * cached brand list, matched like the resolver (suggest-brands.ts), at most 100 (Slack's
 * cap). A guest, a slow or failing brand list: an empty list, never an error text posing
 * as an option someone could pick.
 */
import type { App, BlockSuggestion } from '@slack/bolt';
import { isApiError } from '../../api/errors.js';
import { BLOCK_KIT_LIMITS as L } from '../../messages/block-kit-limit-table.js';
import { UserError } from '../../messages/user-error.js';
import type { CommandOutcome } from '../../metrics.js';
import { isDatabaseUnavailable } from '../../store/database-unavailable.js';
import { CHOOSE_BRAND_ACTION_ID } from '../commands/brand-pick-reply.js';
import { suggestBrands } from '../commands/suggest-brands.js';
import type { GuestCheck } from '../kit/guest-check.js';
import { requestDeps } from '../kit/request-deps.js';
import type { SlackDeps } from '../kit/slack-deps.js';
import { BRAND_SELECT_ACTION_ID, type BrandOption, brandOption } from '../views/brand-select.js';

/** Slack waits 3 s for options; past this the list is answered empty rather than not at all. */
const OPTIONS_BUDGET_MS = 2500;

const SERVED = new Set([BRAND_SELECT_ACTION_ID, CHOOSE_BRAND_ACTION_ID]);

interface BrandOptionsSettings {
  guestCheck: GuestCheck;
  budgetMs?: number;
}

/** The options for `query`: a list for people who may see brands, else nothing. */
async function optionsFor(
  deps: SlackDeps,
  body: BlockSuggestion,
  client: Parameters<GuestCheck>[0],
  guestCheck: GuestCheck,
): Promise<BrandOption[]> {
  await guestCheck(client, body.user.id);
  const brands = await deps.brandCache.list();
  return suggestBrands(brands, body.value ?? '', L.selectOptions).map((s) => brandOption(s.brand, s.alias));
}

export function registerBrandOptions(app: App, deps: SlackDeps, settings: BrandOptionsSettings): void {
  const budget = settings.budgetMs ?? OPTIONS_BUDGET_MS;
  app.options<'block_suggestion'>(
    { type: 'block_suggestion', action_id: /^vis:/ },
    async ({ ack, body, client, next }) => {
      if (!SERVED.has(body.action_id)) {
        await next();
        return;
      }
      const started = performance.now();
      const logger = deps.logger.child({
        component: 'options',
        userId: body.user.id,
        actionId: body.action_id,
      });
      let outcome: CommandOutcome = 'ok';
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), budget);
      });
      let options: BrandOption[] = [];
      try {
        const running = optionsFor(requestDeps(deps, deps.clock.now()), body, client, settings.guestCheck);
        // Past the budget nobody awaits it: a later failure must not become an unhandled rejection.
        running.catch(() => undefined);
        const found = await Promise.race([running, late]);
        if (found === 'late') {
          outcome = 'error';
          logger.warn({ budgetMs: budget }, 'brand list too slow for a type-ahead answer; no options sent');
        } else options = found;
      } catch (err) {
        outcome =
          err instanceof UserError
            ? 'user_error'
            : isApiError(err)
              ? 'api_error'
              : isDatabaseUnavailable(err)
                ? 'database_unavailable'
                : 'error';
        if (outcome === 'error') logger.error({ err }, 'brand options failed');
        else logger.info({ err }, 'no brand options for this person');
      } finally {
        clearTimeout(timer);
      }
      await ack({ options });
      const seconds = (performance.now() - started) / 1000;
      deps.metrics.observeAction('options:brand', seconds, outcome);
      logger.info({ outcome, count: options.length, ms: Math.round(seconds * 1000) }, 'brand options served');
    },
  );
}
