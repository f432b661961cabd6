/**
 * Where a chart the bot shared went, in the console's words: Slack would show the picture
 * in the channel; the local Slack writes it into the charts folder, so the console names
 * that file for a person to open, right under the message that shares it.
 */
import { relative } from 'node:path';
import type { ConsoleContext } from './console-context.js';

/** "Chart "…" written to data/charts/….png (open it to see it)", one line per file id. */
export function chartFileLines(
  ctx: Pick<ConsoleContext, 'stack' | 'io'>,
  fileIds: readonly string[],
): string[] {
  const stored = ctx.stack.slack.files();
  return fileIds.flatMap((id) => {
    const file = stored.find((f) => f.id === id);
    if (!file) return [];
    return [
      ctx.io.style.dim(
        file.path
          ? `Chart "${file.title}" written to ${relative(process.cwd(), file.path)} (open it to see it)`
          : `Chart "${file.title}" (the local Slack keeps it; start the demo with a charts folder to get the file)`,
      ),
    ];
  });
}

/** The file ids a files.completeUploadExternal call shared (its `files` argument). */
export function sharedFileIds(args: Record<string, unknown>): string[] {
  const files = args['files'];
  if (!Array.isArray(files)) return [];
  return files.flatMap((f) => {
    const id = (f as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? [id] : [];
  });
}
