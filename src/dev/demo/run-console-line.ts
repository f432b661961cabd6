/** One console line: a slash command or a `:` command. Resolves 'quit' to end the console. */
import { runAdvance } from './commands/run-advance.js';
import { runClick } from './commands/run-click.js';
import { runHome } from './commands/run-home.js';
import { runJobsCommand } from './commands/run-jobs-command.js';
import { runLogs } from './commands/run-logs.js';
import { runSlashCommand } from './commands/run-slash-command.js';
import { runTraffic, runUsage } from './commands/run-stage.js';
import { runSubmit } from './commands/run-submit.js';
import { runWait } from './commands/run-wait.js';
import type { ConsoleContext } from './console-context.js';
import { ConsoleInputError } from './console-input-error.js';
import { demoHelp } from './demo-help.js';
import { tokenize } from './tokenize.js';

export async function runConsoleLine(ctx: ConsoleContext, line: string): Promise<'quit' | undefined> {
  if (/^\/visibility(\s|$)/.test(line)) {
    await runSlashCommand(ctx, line);
    return undefined;
  }
  if (!line.startsWith(':')) {
    throw new ConsoleInputError('Type a /visibility command or a :command (:help lists them).');
  }
  const [name = '', ...args] = tokenize(line.slice(1));
  switch (name.toLowerCase()) {
    case 'click':
      await runClick(ctx, args);
      break;
    case 'submit':
      await runSubmit(ctx, args);
      break;
    case 'home':
      await runHome(ctx);
      break;
    case 'jobs':
      await runJobsCommand(ctx, args);
      break;
    case 'advance':
      runAdvance(ctx);
      break;
    case 'usage':
      await runUsage(ctx, args);
      break;
    case 'traffic':
      await runTraffic(ctx, args);
      break;
    case 'wait':
      await runWait(ctx, args);
      break;
    case 'logs':
      await runLogs(ctx);
      break;
    case 'help':
      for (const l of demoHelp(ctx.io.style)) ctx.io.print(l);
      break;
    case 'quit':
    case 'exit':
    case 'q':
      return 'quit';
    default:
      throw new ConsoleInputError(`Unknown command :${name}. :help lists them.`);
  }
  return undefined;
}
