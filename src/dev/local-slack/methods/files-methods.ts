/**
 * files.getUploadURLExternal and files.completeUploadExternal: Slack's current upload flow
 * (what @slack/web-api's files.uploadV2 does). The bytes go to the upload URL in between
 * (start-local-slack.ts routes it to the FileStore, which checks they are a valid PNG).
 * https://docs.slack.dev/reference/methods/files.getUploadURLExternal
 * https://docs.slack.dev/reference/methods/files.completeUploadExternal
 */
import { str } from '../parse-api-args.js';
import { type MethodHandler, slackError } from './method-context.js';
import { requireChannel } from './require-channel.js';

/** The documented limit of `alt_txt`. */
const ALT_TXT_MAX_CHARS = 1000;

/**
 * The alt text is read from `alt_txt`, the argument the method reference documents, and
 * only from there: @slack/web-api's types name it `alt_text`, which the reference does not
 * list, so a client sending only that name gets no alt text here.
 */
export const getUploadURLExternal: MethodHandler = (args, { ws }) => {
  const filename = str(args['filename']);
  const length = Number(str(args['length']));
  const altText = str(args['alt_txt']) || undefined;
  if (!filename) return slackError('invalid_arguments', ['[ERROR] missing required field: filename']);
  if (!Number.isInteger(length) || length <= 0)
    return slackError('invalid_arguments', ['[ERROR] length must be a positive integer']);
  if (altText && altText.length > ALT_TXT_MAX_CHARS) return slackError('alt_txt_too_large');
  const reserved = ws.files.reserve(ws.nextId('F'), ws.nextId('U').toLowerCase(), filename, length, altText);
  return { ok: true, upload_url: reserved.uploadUrl, file_id: reserved.fileId };
};

interface FileRef {
  id: string;
  title: string | undefined;
}

function readFiles(value: unknown): FileRef[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const refs: FileRef[] = [];
  for (const v of value) {
    const id = str((v as { id?: unknown })?.id);
    if (!id) return undefined;
    refs.push({ id, title: str((v as { title?: unknown }).title) });
  }
  return refs;
}

export const completeUploadExternal: MethodHandler = (args, { ws, clock }) => {
  const refs = readFiles(args['files']);
  if (!refs) return slackError('invalid_arguments', ['[ERROR] files must list at least one {id}']);
  const channelRef = str(args['channel_id']);
  const found = channelRef ? requireChannel(ws, channelRef, { member: true, notArchived: true }) : undefined;
  if (found && 'error' in found) return found.error;
  const uploads = [];
  for (const ref of refs) {
    const up = ws.files.uploaded(ref.id);
    if (typeof up === 'string') return slackError(up);
    uploads.push({ up, title: ref.title ?? up.filename });
  }
  const channel = found?.channel.id;
  const threadTs = str(args['thread_ts']) || undefined;
  if (channel && threadTs && !ws.findMessage(channel, threadTs)) return slackError('thread_not_found');
  const files = uploads.map(({ up, title }) =>
    ws.files.share(up, { title, channel, threadTs, at: clock.now() }),
  );
  if (channel) {
    const message = ws.addMessage({
      channel,
      text: str(args['initial_comment']) ?? '',
      blocks: undefined,
      metadata: undefined,
      thread_ts: threadTs,
      reply_broadcast: false,
      ephemeralTo: undefined,
      via: 'files.completeUploadExternal',
      responseUrlId: undefined,
      files: files.map((f) => ({ id: f.id, name: f.name, title: f.title })),
    });
    for (const f of files) {
      f.messageTs = message.ts;
      ws.files.announce(f);
    }
  }
  return {
    ok: true,
    files: files.map((f) => ({ id: f.id, title: f.title, name: f.name })),
  };
};
