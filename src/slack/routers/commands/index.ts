/**
 * `/visibility`: acked at once with an empty body (Slack wants an answer within 3 s and
 * shows nothing for an empty ack), then the work runs and every reply goes to the
 * command's response_url.
 */
import type { App } from '@slack/bolt';
import { runCommand } from '../../commands/run-command.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { createGuestCheck, type GuestCheck } from '../../kit/guest-check.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { subcommands as registered } from './registry.js';

const COMMAND = '/visibility';

interface RegisterCommandsOptions {
  subcommands?: readonly Subcommand[];
  guestCheck?: GuestCheck;
}

export function register(app: App, deps: SlackDeps, options: RegisterCommandsOptions = {}): void {
  const subcommands = options.subcommands ?? registered;
  const guestCheck = options.guestCheck ?? createGuestCheck(deps.clock);
  app.command(COMMAND, async ({ ack, command, respond, client }) => {
    await ack();
    await runCommand(
      deps,
      {
        text: command.text ?? '',
        userId: command.user_id,
        channelId: command.channel_id,
        channelName: command.channel_name,
        teamId: command.team_id,
        triggerId: command.trigger_id,
        client,
        respond,
      },
      { subcommands, guestCheck },
    );
  });
}
