/**
 * Uploads one file with Slack's current flow, the three steps @slack/web-api's
 * files.uploadV2 takes (https://docs.slack.dev/messaging/working-with-files#upload):
 * files.getUploadURLExternal reserves a file id and an upload URL, the bytes are POSTed
 * there, files.completeUploadExternal shares the file into the channel or thread.
 *
 * Not files.uploadV2 itself: the outbox must write the file id down between the first step
 * and the last (`onReserved`), so that after a crash it can look for that very file in the
 * channel before uploading again; uploadV2 runs all three steps in one call. The Web API
 * steps go through the caller's WebClient (webClientOptions: its retry policy, timeout and
 * metrics); the bytes go through `fetch`, with the same timeout.
 */
import type { FetchFunction, WebClient } from '@slack/web-api';
import { SLACK_CALL_TIMEOUT_MS } from './web-client-options.js';

interface FileToUpload {
  /** Absent: the file is not shared anywhere (an image block shows it by its id). */
  channel?: string | undefined;
  /** Shared as a reply in this thread; absent: in the channel. */
  threadTs?: string | undefined;
  bytes: Uint8Array;
  fileName: string;
  title: string;
  /** What a screen reader reads instead of the image. */
  altText: string;
  /** The message text shared with the file (plain words; Slack treats it as mrkdwn). */
  initialComment?: string | undefined;
}

interface UploadOptions {
  /** Called with the reserved file id before the bytes go out (the outbox records it). */
  onReserved?: (fileId: string) => void | Promise<void>;
  /** For the bytes; default the global fetch. */
  fetch?: FetchFunction;
}

/** The bytes were refused by the upload URL (HTTP status other than 200). */
export class FileUploadError extends Error {
  readonly code = 'slack_file_upload_failed';
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`Slack refused the file's bytes (HTTP ${status}): ${detail.slice(0, 200)}`);
    this.name = 'FileUploadError';
  }

  /** A 4xx: the same bytes will be refused again. */
  get permanent(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

/** Slack's alt text limit for images (longer: `alt_txt_too_large`). */
export const ALT_TEXT_MAX_CHARS = 1000;

/**
 * The alt text under both names: `alt_txt` is the argument Slack's method reference
 * documents (https://docs.slack.dev/reference/methods/files.getUploadURLExternal);
 * `alt_text` is the one @slack/web-api's types and its files.uploadV2 send. Slack ignores
 * an argument it does not know, so the chart keeps its alt text whichever Slack reads.
 */
function altTextArguments(altText: string): { alt_txt: string; alt_text: string } {
  const text = altText.slice(0, ALT_TEXT_MAX_CHARS);
  return { alt_txt: text, alt_text: text };
}

export async function uploadFile(
  web: WebClient,
  file: FileToUpload,
  o: UploadOptions = {},
): Promise<{ fileId: string }> {
  const reserved = await web.files.getUploadURLExternal({
    filename: file.fileName,
    length: file.bytes.byteLength,
    ...altTextArguments(file.altText),
  });
  const fileId = reserved.file_id;
  const uploadUrl = reserved.upload_url;
  if (!fileId || !uploadUrl) throw new Error('files.getUploadURLExternal answered without a file id or URL');
  await o.onReserved?.(fileId);

  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file.bytes)], { type: 'image/png' }), file.fileName);
  const res = await (o.fetch ?? globalThis.fetch)(uploadUrl, {
    method: 'POST',
    body: form,
    redirect: 'error',
    signal: AbortSignal.timeout(SLACK_CALL_TIMEOUT_MS),
  });
  if (res.status !== 200) throw new FileUploadError(res.status, await res.text().catch(() => ''));

  const files: [{ id: string; title: string }] = [{ id: fileId, title: file.title }];
  await web.files.completeUploadExternal(
    file.channel
      ? {
          files,
          channel_id: file.channel,
          ...(file.threadTs ? { thread_ts: file.threadTs } : {}),
          ...(file.initialComment ? { initial_comment: file.initialComment } : {}),
        }
      : { files },
  );
  return { fileId };
}
