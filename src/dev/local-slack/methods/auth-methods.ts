/** auth.test: https://docs.slack.dev/reference/methods/auth.test (Bolt calls it at start). */
import type { MethodHandler } from './method-context.js';

export const authTest: MethodHandler = (_args, { ws }) => ({
  ok: true,
  url: `https://${ws.identity.teamDomain}.slack.com/`,
  team: ws.identity.teamName,
  user: ws.identity.botName,
  team_id: ws.identity.teamId,
  user_id: ws.identity.botUserId,
  bot_id: ws.identity.botId,
  is_enterprise_install: false,
});
