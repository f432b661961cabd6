/**
 * How the console reads `<@U…>`, `<#C…>` and `<!date^…>`: names from the local Slack's
 * workspace (what users.info and conversations.info would answer), dates in the demo
 * user's zone, as the Slack client of that user would show them.
 */
import type { TokenContext } from '../../terminal/token-context.js';
import type { LocalSlack } from '../local-slack/index.js';

export function localSlackTokens(
  slack: Pick<LocalSlack, 'userInfo' | 'channelName'>,
  readerId: string,
  now: () => number = Date.now,
): TokenContext {
  return {
    userName: (id) => slack.userInfo(id)?.name,
    // A DM is named after its user in the local Slack; the console calls it a direct message.
    channelName: (id) => (id.startsWith('D') ? undefined : slack.channelName(id)),
    // Read when used: a test or script may give the reader another zone after start.
    get timeZone() {
      return slack.userInfo(readerId)?.tz ?? 'UTC';
    },
    now,
  };
}
