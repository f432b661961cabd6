/**
 * Where console lines come from: a fixed list (script, tour) or standard input through
 * node:readline (with a prompt and history on a terminal). `next()` resolves undefined when
 * the lines end.
 */
import { clearLine, createInterface, cursorTo } from 'node:readline';

export interface LineSource {
  /** True for standard input: questions are asked, not answered by the script. */
  readonly interactive: boolean;
  /** True when a person types at a terminal (their line is already on screen). */
  readonly terminal: boolean;
  /**
   * True while the console waits for the next line and none is queued: nothing runs, so
   * what the bot posts now can be shown at once. A fixed list never waits.
   */
  readonly waiting: boolean;
  /** Calls `listener` each time the console starts waiting; returns the unsubscribe. */
  onWait(listener: () => void): () => void;
  /**
   * Writes `text` (whole lines) while the console waits, above the prompt: on a terminal
   * the prompt and what was typed so far are cleared first and drawn again after it.
   */
  printAbove(text: string): void;
  /** The next line; `question` is shown first when given (and the answer echoed off a terminal). */
  next(question?: string): Promise<string | undefined>;
  close(): void;
}

export function arrayLineSource(
  lines: readonly string[],
  output: { write(chunk: string): unknown },
): LineSource {
  let i = 0;
  return {
    interactive: false,
    terminal: false,
    waiting: false,
    onWait: () => () => undefined,
    printAbove: (text) => output.write(text),
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
  const waitListeners = new Set<() => void>();
  let closed = false;
  let waitingForLine = false;
  rl.on('line', (line) => {
    // Not waiting from here on, before the console gets to run the line.
    waitingForLine = false;
    const resolve = waiting.shift();
    if (resolve) resolve(line);
    else queue.push(line);
  });
  rl.on('close', () => {
    closed = true;
    waitingForLine = false;
    for (const resolve of waiting.splice(0)) resolve(undefined);
  });
  // Ctrl-C ends the console like Ctrl-D: everything is shut down cleanly.
  rl.on('SIGINT', () => rl.close());
  return {
    interactive: true,
    terminal,
    get waiting() {
      return waitingForLine;
    },
    onWait(listener) {
      waitListeners.add(listener);
      return () => waitListeners.delete(listener);
    },
    printAbove(text) {
      if (!terminal || !waitingForLine) {
        output.write(text);
        return;
      }
      clearLine(output, 0);
      cursorTo(output, 0);
      output.write(text);
      // Prompt and the half-typed line again, the cursor where it was.
      rl.prompt(true);
    },
    async next(question) {
      if (question !== undefined && !terminal) output.write(question);
      let line: string | undefined;
      if (queue.length > 0) line = queue.shift();
      else if (!closed) {
        if (terminal) {
          rl.setPrompt(question ?? prompt);
          rl.prompt();
        }
        const answer = new Promise<string | undefined>((resolve) => waiting.push(resolve));
        // A yes/no question belongs to the line being run; only the prompt is waiting.
        if (question === undefined) {
          waitingForLine = true;
          for (const listener of waitListeners) listener();
        }
        line = await answer;
      }
      if (question !== undefined && !terminal) output.write(`${line ?? ''}\n`);
      return line;
    },
    close: () => rl.close(),
  };
}
