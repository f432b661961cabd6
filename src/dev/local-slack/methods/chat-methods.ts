/**
 * chat.postMessage, chat.postEphemeral, chat.update, chat.delete, chat.getPermalink.
 * https://docs.slack.dev/reference/methods/chat.postMessage and siblings.
 */
import { checkMessageContent, readMetadata } from '../check-message-content.js';
import { messageJson } from '../message-json.js';
import { flag, str } from '../parse-api-args.js';
import { type MethodHandler, slackError } from './method-context.js';
import { requireChannel } from './require-channel.js';

const POSTING = { member: true, notArchived: true } as const;

export const postMessage: MethodHandler = (args, { ws }) => {
  const found = requireChannel(ws, args['channel'], POSTING);
  if ('error' in found) return found.error;
  const checked = checkMessageContent(args, { refusedTypes: ws.faults.refusedBlockTypes });
  if (!checked.ok) return slackError(checked.problem.error, checked.problem.messages);
  const metadata = readMetadata(args['metadata']);
  if (metadata === 'invalid') return slackError('invalid_metadata_format');
  const message = ws.addMessage({
    channel: found.channel.id,
    ...checked.content,
    metadata,
    thread_ts: str(args['thread_ts']) || undefined,
    reply_broadcast: flag(args['reply_broadcast']),
    ephemeralTo: undefined,
    via: 'chat.postMessage',
    responseUrlId: undefined,
  });
  return {
    ok: true,
    channel: found.channel.id,
    ts: message.ts,
    message: messageJson(message, ws.identity, true),
  };
};

export const postEphemeral: MethodHandler = (args, { ws }) => {
  const user = str(args['user']);
  if (!user || !ws.users.has(user)) return slackError('user_not_found');
  const found = requireChannel(ws, args['channel'], POSTING);
  if ('error' in found) return found.error;
  const checked = checkMessageContent(args, { refusedTypes: ws.faults.refusedBlockTypes });
  if (!checked.ok) return slackError(checked.problem.error, checked.problem.messages);
  const message = ws.addMessage({
    channel: found.channel.id,
    ...checked.content,
    metadata: undefined,
    thread_ts: str(args['thread_ts']) || undefined,
    reply_broadcast: false,
    ephemeralTo: user,
    via: 'chat.postEphemeral',
    responseUrlId: undefined,
  });
  return { ok: true, message_ts: message.ts };
};

export const update: MethodHandler = (args, { ws }) => {
  const found = requireChannel(ws, args['channel'], { member: false, notArchived: true });
  if ('error' in found) return found.error;
  const ts = str(args['ts']);
  const message = ts ? ws.findMessage(found.channel.id, ts) : undefined;
  if (!message) return slackError('message_not_found');
  const checked = checkMessageContent(args, { refusedTypes: ws.faults.refusedBlockTypes });
  if (!checked.ok) return slackError(checked.problem.error, checked.problem.messages);
  const metadata = readMetadata(args['metadata']);
  if (metadata === 'invalid') return slackError('invalid_metadata_format');
  ws.editMessage(message, { ...checked.content, metadata });
  return {
    ok: true,
    channel: message.channel,
    ts: message.ts,
    text: message.text ?? '',
    message: messageJson(message, ws.identity, true),
  };
};

export const deleteMessage: MethodHandler = (args, { ws }) => {
  const found = requireChannel(ws, args['channel'], { member: false, notArchived: false });
  if ('error' in found) return found.error;
  const ts = str(args['ts']);
  const message = ts ? ws.findMessage(found.channel.id, ts) : undefined;
  if (!message) return slackError('message_not_found');
  ws.removeMessage(message);
  return { ok: true, channel: message.channel, ts: message.ts };
};

export const getPermalink: MethodHandler = (args, { ws }) => {
  const found = requireChannel(ws, args['channel'], { member: false, notArchived: false });
  if ('error' in found) return found.error;
  const ts = str(args['message_ts']);
  if (!ts || !ws.findMessage(found.channel.id, ts)) return slackError('message_not_found');
  return {
    ok: true,
    channel: found.channel.id,
    permalink: `https://${ws.identity.teamDomain}.slack.com/archives/${found.channel.id}/p${ts.replace('.', '')}`,
  };
};
