/** `:help`: everything the console understands. */
import type { Style } from '../../terminal/style.js';

export function demoHelp(style: Style): string[] {
  const row = (cmd: string, what: string) => `  ${style.bold(cmd.padEnd(36))} ${what}`;
  return [
    style.heading('The demo console'),
    'You are @local.user in #general of a local Slack workspace; the bot is the real service.',
    '',
    row('/visibility <subcommand> …', 'a slash command, e.g. /visibility brands (see /visibility help)'),
    row(
      ':click <N | label>',
      'press button [N] of the last reply (or pick option [N]); asks first if it confirms',
    ),
    row(
      ':submit block.action=value …',
      'fill in and submit the open modal; a select takes a value, (N) or label, a type-ahead select what you would type',
    ),
    row(':home', 'open the App Home tab and show what the bot publishes there'),
    row(
      ':jobs [citations|crawler|ai-pages|digest]',
      'run the scheduled jobs once and show what they post (to the channels subscribed with /visibility subscribe)',
    ),
    row(':advance', 'the simulator moves to the next day of data; says what changed'),
    row(':usage <brand> <percent>', 'set AI Pages usage, e.g. :usage "Acme Analytics" 92'),
    row(':traffic <brand> <factor>', 'scale crawler visits of the last 7 days, e.g. :traffic acme 0.4'),
    row(':wait [seconds]', "wait for the bot's background work (a refresh completing) and show it"),
    row(':logs', "the service's last log lines (warnings and errors)"),
    row(':help', 'this list'),
    row(':quit', 'stop everything and leave (Ctrl-D and Ctrl-C too)'),
    '',
    style.dim(
      'Brands can be named in full ("Acme Analytics"), by their start or by key (acme, northwind, globex, initech, acmeLabs).',
    ),
  ];
}
