/** Where the console writes, how it reads Slack's tokens, and how it asks a yes/no question. */
import type { Style } from '../../terminal/style.js';
import type { TokenContext } from '../../terminal/token-context.js';

export interface ConsoleIo {
  style: Style;
  /** Names and the reader's zone, so mentions and dates read as Slack shows them. */
  tokens: TokenContext | undefined;
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
  tokens?: TokenContext,
): ConsoleIo {
  const print = (text = '') => {
    output.write(`${text}\n`);
  };
  return {
    style,
    tokens,
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
