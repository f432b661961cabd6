/**
 * One listener for every `vis:` action: ack at once (Slack wants it within 3 s), then
 * dispatch on the action_id prefix through the registry. Errors become an ephemeral
 * reply, the same text a command would give. The type-ahead brand selects' options are
 * served here too (brand-options.ts).
 */
import type { App, BlockAction, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { fitMessage } from '../../../messages/block-kit-limits.js';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { ActionContext, ActionHandler, ActionInfo } from '../../actions/action-handler.js';
import { registerBrandOptions } from '../../actions/brand-options.js';
import { findActionHandler } from '../../actions/find-action-handler.js';
import { resolveBrandForChannel } from '../../commands/resolve-brand-for-channel.js';
import { withChartFallback } from '../../kit/chart-reply.js';
import { fittedRespond } from '../../kit/fitted-respond.js';
import { createGuestCheck, type GuestCheck } from '../../kit/guest-check.js';
import { reportError } from '../../kit/report-error.js';
import { requestDeps } from '../../kit/request-deps.js';
import { requireWriter } from '../../kit/require-writer.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { actionHandlers } from './registry.js';

interface RegisterActionsOptions {
  handlers?: readonly ActionHandler[];
  guestCheck?: GuestCheck;
}

function actionInfo(action: BlockAction['actions'][number]): ActionInfo {
  const a = action as {
    action_id: string;
    block_id?: string;
    value?: string;
    selected_option?: { value?: string };
    selected_user?: string;
  };
  return {
    actionId: a.action_id,
    value: a.value,
    blockId: a.block_id,
    selectedOption: a.selected_option?.value,
    selectedUser: typeof a.selected_user === 'string' ? a.selected_user : undefined,
  };
}

/** No response_url (App Home, modals): answer the user in the app's DM instead. */
function replyTo(
  body: BlockAction,
  respond: RespondFn | undefined,
  client: WebClient,
  deps: SlackDeps,
): (r: Reply) => Promise<void> {
  if (body.response_url && respond)
    return withChartFallback(fittedRespond(respond), deps, {
      teamId: body.team?.id ?? body.user.team_id,
      channelId: body.channel?.id,
      web: client,
    });
  return async (reply) => {
    const fitted = fitMessage(reply);
    await client.chat.postMessage({ channel: body.user.id, text: fitted.text, blocks: fitted.blocks });
  };
}

export function register(app: App, deps: SlackDeps, options: RegisterActionsOptions = {}): void {
  const handlers = options.handlers ?? actionHandlers;
  const guestCheck = options.guestCheck ?? createGuestCheck(deps.clock);
  registerBrandOptions(app, deps, { guestCheck });
  app.action<BlockAction>(/^vis:/, async ({ ack, body, action, respond, client }) => {
    await ack();
    const started = performance.now();
    // The limiter's order for this click's API calls (deps.clock: the limiter's clock).
    const request = requestDeps(deps, deps.clock.now());
    const info = actionInfo(action);
    const handler = findActionHandler(handlers, info.actionId);
    const label = `action:${handler?.prefix ?? 'unknown'}`;
    const userId = body.user.id;
    const channelId = body.channel?.id ?? (body.container as { channel_id?: string } | undefined)?.channel_id;
    const logger = deps.logger.child({ component: 'action', userId, channelId, actionId: info.actionId });
    const reply = replyTo(body, respond, client, request);
    let outcome: Awaited<ReturnType<typeof reportError>> | 'ok' = 'ok';
    try {
      if (!handler) {
        throw new UserError(
          UserErrorCode.UnknownAction,
          mrkdwn`That button no longer does anything; run the command again.`,
        );
      }
      await guestCheck(client, userId);
      // Every click reads or changes something kept in the database (at least the API
      // key's rate budget): while it cannot be used, say so at once.
      await request.database.available();
      const ctx: ActionContext = {
        deps: request,
        userId,
        channelId,
        teamId: body.team?.id,
        action: info,
        respond: reply,
        client,
        triggerId: body.trigger_id,
        body,
        resolveBrand: (token) => resolveBrandForChannel(request, channelId ?? '', token),
        requireWriter: async (what) => requireWriter(request, { userId, channelId }, what),
      };
      await handler.run(ctx);
    } catch (err) {
      outcome = await reportError(err, { logger, respond: reply, label });
    } finally {
      const seconds = (performance.now() - started) / 1000;
      deps.metrics.observeAction(handler?.prefix ?? 'unknown', seconds, outcome);
      logger.info({ handler: label, outcome, ms: Math.round(seconds * 1000) }, 'action handled');
    }
  });
}
