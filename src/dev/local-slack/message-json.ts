/** A stored message as the Web API shows it (chat.* responses, conversations.history, payloads). */
import type { StoredMessage } from './types.js';
import type { WorkspaceIdentity } from './workspace.js';

export function messageJson(
  m: StoredMessage,
  identity: WorkspaceIdentity,
  includeMetadata: boolean,
): Record<string, unknown> {
  return {
    type: 'message',
    subtype: 'bot_message',
    user: m.user,
    bot_id: m.bot_id,
    app_id: identity.appId,
    team: identity.teamId,
    ts: m.ts,
    text: m.text ?? '',
    ...(m.blocks !== undefined ? { blocks: m.blocks } : {}),
    ...(m.thread_ts !== undefined ? { thread_ts: m.thread_ts } : {}),
    ...(m.files !== undefined
      ? { upload: true, files: m.files.map((f) => ({ ...f, mimetype: 'image/png', filetype: 'png' })) }
      : {}),
    ...(m.edited !== undefined ? { edited: { user: m.user, ts: m.edited } } : {}),
    ...(includeMetadata && m.metadata !== undefined ? { metadata: m.metadata } : {}),
    bot_profile: { id: m.bot_id, app_id: identity.appId, name: identity.botName, team_id: identity.teamId },
  };
}
