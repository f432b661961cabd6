/**
 * Where console lines come from: a fixed list (script, tour) or standard input through
 * node:readline (with a prompt and history on a terminal). `next()` resolves undefined when
 * the lines end.
 */
import { createInterface } from 'node:readline';

export interface LineSource {
  /** True for standard input: questions are asked, not answered by the script. */
  readonly interactive: boolean;
  /** True when a person types at a terminal (their line is already on screen). */
  readonly terminal: boolean;
  /** The next line; `question` is shown first when given (and the answer echoed off a terminal). */
  next(question?: string): Promise<string | undefined>;
  close(): void;
}

export function arrayLineSource(lines: readonly string[]): LineSource {
  let i = 0;
  return {
    interactive: false,
    terminal: false,
    next: async () => lines[i++],
    close() {
      i = lines.length;
    },
  };
}

interface TtyStream {
  isTTY?: boolean;
}

export function readlineLineSource(
  input: NodeJS.ReadableStream & TtyStream,
  output: NodeJS.WritableStream & TtyStream,
  prompt: string,
): LineSource {
  const terminal = input.isTTY === true && output.isTTY === true;
  const rl = createInterface({ input, ...(terminal ? { output } : {}), terminal, historySize: 200 });
  const queue: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  let closed = false;
  rl.on('line', (line) => {
    const resolve = waiting.shift();
    if (resolve) resolve(line);
    else queue.push(line);
  });
  rl.on('close', () => {
    closed = true;
    for (const resolve of waiting.splice(0)) resolve(undefined);
  });
  // Ctrl-C ends the console like Ctrl-D: everything is shut down cleanly.
  rl.on('SIGINT', () => rl.close());
  return {
    interactive: true,
    terminal,
    async next(question) {
      if (question !== undefined && !terminal) output.write(question);
      let line: string | undefined;
      if (queue.length > 0) line = queue.shift();
      else if (!closed) {
        if (terminal) {
          rl.setPrompt(question ?? prompt);
          rl.prompt();
        }
        line = await new Promise<string | undefined>((resolve) => waiting.push(resolve));
      }
      if (question !== undefined && !terminal) output.write(`${line ?? ''}\n`);
      return line;
    },
    close: () => rl.close(),
  };
}
