/**
 * A slash command's HTTP response body, when it has one, is shown like a response_url reply
 * (ephemeral unless `response_type: in_channel`; plain text allowed):
 * https://docs.slack.dev/interactivity/implementing-slash-commands#responding_to_commands
 */
import { checkMessageContent } from './check-message-content.js';
import type { StoredMessage } from './types.js';
import type { Workspace } from './workspace.js';

export function storeAckReply(
  ws: Workspace,
  body: string,
  channelId: string,
  userId: string,
): StoredMessage | undefined {
  if (body.trim() === '') return undefined;
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(body);
    args =
      typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : { text: body };
  } catch {
    args = { text: body };
  }
  const checked = checkMessageContent(args, { refusedTypes: ws.faults.refusedBlockTypes });
  if (!checked.ok) return undefined;
  return ws.addMessage({
    channel: channelId,
    ...checked.content,
    metadata: undefined,
    thread_ts: undefined,
    reply_broadcast: false,
    ephemeralTo: args['response_type'] === 'in_channel' ? undefined : userId,
    via: 'ack',
    responseUrlId: undefined,
  });
}
