/** What the demo prints at start: what runs where, the brands, and three things to try. */

import type { Style } from '../../terminal/style.js';
import { DEMO_BRANDS } from './demo-brands.js';
import type { DemoStack } from './start-demo-stack.js';

export function demoBanner(stack: DemoStack, style: Style): string[] {
  const row = (what: string, where: string) => `  ${what.padEnd(16)}${where}`;
  return [
    style.heading('visibility-bot demo'),
    'Everything runs in this process; nothing leaves your machine.',
    row('API simulator', `${stack.sim.url}  (the Brand Visibility API, ${stack.config.apiPlan} plan limits)`),
    row('Local Slack', `${stack.slack.url}  (you are @local.user in #general)`),
    row('The service', `${stack.appUrl}  (the real bot; :logs shows its warnings)`),
    '',
    `Demo brands: ${DEMO_BRANDS.map((b) => b.name).join(', ')}`,
    '',
    'Try:',
    `  ${style.bold('/visibility brands')}   then ${style.bold(':click 1')}`,
    `  ${style.bold(':home')}`,
    `  ${style.bold('/visibility subscribe "Acme Analytics"')}   then ${style.bold(':usage "Acme Analytics" 92')} and ${style.bold(':jobs')}`,
    style.dim(':help lists everything; :quit leaves.'),
  ];
}
