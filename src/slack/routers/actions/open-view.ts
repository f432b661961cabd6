/**
 * Drill-down buttons (`vis:open:<view>`, value JSON `{brandId, …extra}`) from the brand
 * list, brand details, the App Home, alerts and digests. `<view>` is a subcommand name
 * (`markets`, `aipages`) or `<subcommand>-<sub>` (`citations-feed` → `citations <brand>
 * feed`); extra keys of the value become flags (`{url}` → `--url …`) when the subcommand's
 * usage documents that flag, and are dropped otherwise: subcommands refuse unknown flags,
 * and a drill-down that opens the view without its highlight beats one that fails. The
 * answer is a new ephemeral message: the message clicked (often an alert in the channel)
 * stays as it is.
 *
 * The "View" menu (`vis:switch-view`, views/view-switcher.ts) is the other way in: its
 * chosen option's value is the command for that view, and its answer replaces the reply
 * the menu was on, as a tab would.
 */

import { mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { ActionHandler } from '../../actions/action-handler.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { findSubcommand } from '../../commands/find-subcommand.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { SWITCH_VIEW_ACTION_ID, switchedCommand } from '../../views/view-switcher.js';
import { subcommands as registered } from '../commands/registry.js';
import {
  parseSubcommandText,
  runSubcommandFromAction,
  type SubcommandRun,
} from './run-subcommand-from-action.js';

const OPEN_VIEW_PREFIX = 'vis:open';

const quote = (s: string) => (/[\s"]/.test(s) ? `"${s.replace(/"/g, "'")}"` : s);

export function openViewRun(
  actionId: string,
  value: Record<string, unknown>,
  list: readonly Subcommand[],
): SubcommandRun {
  const view = actionId.slice(OPEN_VIEW_PREFIX.length + 1);
  const brandId = value['brandId'];
  if (view === '' || typeof brandId !== 'string' || brandId === '') {
    throw new UserError(
      UserErrorCode.StaleAction,
      mrkdwn`That button is from an older message; run the command again.`,
    );
  }
  // A whole name first, so a subcommand with a dash in its name still matches.
  let name = view;
  const positional = [brandId];
  if (!findSubcommand(list, view)) {
    const dash = view.indexOf('-');
    if (dash > 0) {
      name = view.slice(0, dash);
      positional.push(view.slice(dash + 1));
    }
  }
  const documented = findSubcommand(list, name)?.usage ?? '';
  const flags: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'brandId' || typeof v !== 'string' || v === '') continue;
    if (new RegExp(`--${key.replace(/[^\w-]/g, '')}\\b`).test(documented)) flags[key] = v;
  }
  const rawText = [name, ...positional, ...Object.entries(flags).map(([k, v]) => `--${k} ${quote(v)}`)]
    .map((p, i) => (i === 0 || p.startsWith('--') ? p : quote(p)))
    .join(' ');
  return { name, positional, flags, rawText };
}

export const openView: ActionHandler = {
  prefix: OPEN_VIEW_PREFIX,
  async run(ctx) {
    const run = openViewRun(ctx.action.actionId, parseActionValue(ctx.action.value), registered);
    await runSubcommandFromAction(ctx, run, (reply) => ctx.respond({ ...reply, replaceOriginal: false }));
  },
};

export const switchView: ActionHandler = {
  prefix: SWITCH_VIEW_ACTION_ID,
  async run(ctx) {
    const text = ctx.action.selectedOption?.trim();
    if (!text)
      throw new UserError(
        UserErrorCode.StaleAction,
        mrkdwn`That menu is from an older message; run the command again.`,
      );
    const run = parseSubcommandText(switchedCommand(ctx.action.actionId, text));
    await runSubcommandFromAction(ctx, run, (reply) => ctx.respond({ ...reply, replaceOriginal: true }));
  },
};
