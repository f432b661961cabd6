/** Where the console writes, and how it asks a yes/no question. */
import type { Style } from '../../terminal/style.js';

export interface ConsoleIo {
  style: Style;
  print(text?: string): void;
  /** Interactive: reads the answer; script and tour: answers yes. */
  confirm(question: string): Promise<boolean>;
}

export interface OutputStream {
  write(chunk: string): unknown;
}

export function createConsoleIo(
  output: OutputStream,
  style: Style,
  ask: ((question: string) => Promise<string | undefined>) | undefined,
): ConsoleIo {
  const print = (text = '') => {
    output.write(`${text}\n`);
  };
  return {
    style,
    print,
    async confirm(question) {
      if (!ask) {
        print(`${question} y ${style.dim('(answered by the script)')}`);
        return true;
      }
      const answer = await ask(`${question} `);
      return /^y(es)?$/i.test(answer?.trim() ?? '');
    },
  };
}
