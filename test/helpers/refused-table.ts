/**
 * A workspace that refuses Slack's table block: the command's first reply is refused
 * (`invalid_blocks`) and the same reply goes out once more, and only once more, with the
 * rows as lines. Returns both bodies: the refused one and the one Slack accepted.
 */
import { expect } from 'vitest';
import type { LocalSlack, SlashCommandOptions } from '../../src/dev/local-slack/index.js';

export async function replyAfterRefusedTable(
  slack: LocalSlack,
  appUrl: string,
  command: SlashCommandOptions,
): Promise<{ refused: unknown; resent: unknown }> {
  slack.refuseBlocks(['data_table']);
  try {
    const res = await slack.slashCommand(appUrl, command);
    expect(res.status).toBe(200);
    const posts = await slack.waitFor(() => {
      const all = slack.responsesFor(res.responseUrlId);
      return all.length >= 2 ? all : undefined;
    }, 8000);
    expect(posts[0]!.error).toBe('invalid_blocks');
    expect(posts[1]!.status).toBe(200);
    expect(posts[1]!.error).toBeUndefined();
    expect(posts).toHaveLength(2);
    return { refused: posts[0]!.body, resent: posts[1]!.body };
  } finally {
    slack.acceptBlocks();
  }
}
