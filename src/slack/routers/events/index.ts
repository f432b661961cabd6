/**
 * Events API: app_home_opened on the Home tab runs every registered home handler. Bolt
 * acks events itself before the listener runs; a failure is logged, never retried by us.
 */
import type { App } from '@slack/bolt';
import { fitView } from '../../../messages/block-kit-limits.js';
import type { HomeContext, HomeHandler } from '../../events/home-handler.js';
import { createGuestCheck, type GuestCheck } from '../../kit/guest-check.js';
import { requestDeps } from '../../kit/request-deps.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { homeHandlers } from './registry.js';

interface RegisterEventsOptions {
  handlers?: readonly HomeHandler[];
  guestCheck?: GuestCheck;
}

export function register(app: App, deps: SlackDeps, options: RegisterEventsOptions = {}): void {
  const handlers = options.handlers ?? homeHandlers;
  const guestCheck = options.guestCheck ?? createGuestCheck(deps.clock);
  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    const logger = deps.logger.child({ component: 'home', userId: event.user });
    const ctx: HomeContext = {
      deps: requestDeps(deps, deps.clock.now()),
      userId: event.user,
      client,
      event,
      ensureMember: () => guestCheck(client, event.user),
      publish: async (view) => {
        await client.views.publish({ user_id: event.user, view: fitView(view) });
      },
    };
    for (const handler of handlers) {
      try {
        await handler.run(ctx);
      } catch (err) {
        logger.error({ err, handler: handler.name }, 'App Home handler failed');
      }
    }
  });
}
