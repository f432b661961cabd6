/** users.info: https://docs.slack.dev/reference/methods/users.info */
import { str } from '../parse-api-args.js';
import { tzOffsetSeconds } from '../tz-offset.js';
import { type MethodHandler, slackError } from './method-context.js';

export const usersInfo: MethodHandler = (args, { ws, clock }) => {
  const id = str(args['user']);
  const u = id ? ws.users.get(id) : undefined;
  if (!u) return slackError('user_not_found');
  return {
    ok: true,
    user: {
      id: u.id,
      team_id: ws.identity.teamId,
      name: u.name,
      real_name: u.name,
      deleted: false,
      tz: u.tz,
      tz_label: u.tz,
      tz_offset: tzOffsetSeconds(u.tz, clock.now()),
      is_admin: u.isAdmin,
      is_owner: false,
      is_primary_owner: false,
      is_restricted: u.isRestricted,
      is_ultra_restricted: u.isUltraRestricted,
      is_bot: u.isBot,
      is_app_user: false,
      profile: { real_name: u.name, display_name: u.name },
    },
  };
};
