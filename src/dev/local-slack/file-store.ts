/**
 * Files uploaded with Slack's external upload flow
 * (https://docs.slack.dev/messaging/working-with-files#upload): files.getUploadURLExternal
 * reserves a file id and an upload URL, the bytes are POSTed to that URL, and
 * files.completeUploadExternal shares the file into a channel or thread. Tests read what
 * was shared (channel, thread, title, alt text, bytes); the demo gets each chart written
 * to a folder so a person can open it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { checkPng } from './check-png.js';
import type { StoredFile } from './types.js';

interface PendingUpload {
  id: string;
  uploadId: string;
  filename: string;
  length: number;
  altText: string | undefined;
  bytes: Buffer | undefined;
}

type UploadAnswer = { status: 200; body: string } | { status: 400 | 404; body: string };

/** A file name safe to write inside the folder: no path, no odd characters. */
function safeName(id: string, filename: string): string {
  const name = basename(filename).replace(/[^A-Za-z0-9._-]+/g, '-');
  return name === '' || name.startsWith('.') ? `${id}.png` : name;
}

export class FileStore {
  /** Shared files, oldest first. */
  readonly files: StoredFile[] = [];
  readonly #pending = new Map<string, PendingUpload>();
  readonly #byUploadId = new Map<string, PendingUpload>();
  /** Where upload URLs point (the local Slack's own origin, known once it listens). */
  origin = '';

  constructor(
    private readonly options: {
      /** Each shared PNG is also written here (the demo: data/charts/). */
      directory?: string | undefined;
      /** Told about each shared file (the demo prints its path). */
      onFile?: ((file: StoredFile) => void) | undefined;
    } = {},
  ) {}

  reset(): void {
    this.files.length = 0;
    this.#pending.clear();
    this.#byUploadId.clear();
  }

  reserve(id: string, uploadId: string, filename: string, length: number, altText: string | undefined) {
    const pending: PendingUpload = { id, uploadId, filename, length, altText, bytes: undefined };
    this.#pending.set(id, pending);
    this.#byUploadId.set(uploadId, pending);
    return { uploadUrl: `${this.origin}/upload/v1/${uploadId}`, fileId: id };
  }

  /** The POST to an upload URL. Only valid PNGs of the announced length are taken. */
  receive(uploadId: string, bytes: Buffer): UploadAnswer {
    const pending = this.#byUploadId.get(uploadId);
    if (!pending) return { status: 404, body: 'upload_url_not_found' };
    if (bytes.length !== pending.length)
      return { status: 400, body: `length mismatch: announced ${pending.length}, got ${bytes.length}` };
    const png = checkPng(bytes);
    if (!png.ok) return { status: 400, body: `invalid_png: ${png.problem}` };
    pending.bytes = bytes;
    return { status: 200, body: `OK - ${bytes.length}` };
  }

  /** A reserved file whose bytes arrived, or why it cannot be completed. */
  uploaded(id: string): PendingUpload | 'file_not_found' | 'file_not_uploaded' {
    const pending = this.#pending.get(id);
    if (!pending) return 'file_not_found';
    return pending.bytes ? pending : 'file_not_uploaded';
  }

  share(
    pending: PendingUpload,
    share: { title: string; channel: string | undefined; threadTs: string | undefined; at: number },
  ): StoredFile {
    const bytes = pending.bytes ?? Buffer.alloc(0);
    const png = checkPng(bytes);
    const file: StoredFile = {
      id: pending.id,
      name: pending.filename,
      title: share.title,
      altText: pending.altText,
      bytes,
      width: png.ok ? png.width : 0,
      height: png.ok ? png.height : 0,
      channel: share.channel,
      thread_ts: share.threadTs,
      messageTs: undefined,
      path: undefined,
      at: share.at,
    };
    this.#pending.delete(pending.id);
    this.#byUploadId.delete(pending.uploadId);
    if (this.options.directory) {
      const dir = resolve(this.options.directory);
      mkdirSync(dir, { recursive: true });
      file.path = join(dir, safeName(file.id, file.name));
      writeFileSync(file.path, bytes);
    }
    this.files.push(file);
    return file;
  }

  /** Called once the file's message exists, so the demo can name where it went. */
  announce(file: StoredFile): void {
    this.options.onFile?.(file);
  }
}
