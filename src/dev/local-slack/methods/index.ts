/** The Web API methods the local Slack answers; anything else is `unknown_method`. */
import { authTest } from './auth-methods.js';
import { deleteMessage, getPermalink, postEphemeral, postMessage, update } from './chat-methods.js';
import { history, info, join, replies } from './conversations-methods.js';
import { completeUploadExternal, getUploadURLExternal } from './files-methods.js';
import { completeError, completeSuccess } from './functions-methods.js';
import type { MethodHandler } from './method-context.js';
import { usersInfo } from './users-methods.js';
import * as views from './views-methods.js';

export const WEB_API_METHODS: Readonly<Record<string, MethodHandler>> = {
  'auth.test': authTest,
  'chat.postMessage': postMessage,
  'chat.postEphemeral': postEphemeral,
  'chat.update': update,
  'chat.delete': deleteMessage,
  'chat.getPermalink': getPermalink,
  'conversations.info': info,
  'conversations.history': history,
  'conversations.replies': replies,
  'conversations.join': join,
  'files.getUploadURLExternal': getUploadURLExternal,
  'files.completeUploadExternal': completeUploadExternal,
  'functions.completeSuccess': completeSuccess,
  'functions.completeError': completeError,
  'users.info': usersInfo,
  'views.open': views.open,
  'views.push': views.push,
  'views.update': views.update,
  'views.publish': views.publish,
};

export type { ApiResult, MethodContext, MethodHandler } from './method-context.js';
export { slackError } from './method-context.js';
