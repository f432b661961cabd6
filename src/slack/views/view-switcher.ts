/**
 * The "View" menu on a reply with sibling views (the six citation views, the crawler tabs):
 * a static select whose options are the commands that show each view for the same brand
 * and, where they apply, the same days or range. Choosing one re-runs that command in
 * place of the reply (actions/open-view.ts, `vis:switch-view`), so nobody retypes it.
 * It sits in the reply's one actions block with Share (share-button.ts), so a shared copy
 * in the channel, where a switch would replace everybody's message, carries neither.
 */
import { BLOCK_KIT_LIMITS as L } from '../../messages/block-kit-limit-table.js';
import type { ActionsBlock } from '../../messages/block-kit-types.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { truncatePlain } from '../../messages/truncate-mrkdwn.js';

export const SWITCH_VIEW_ACTION_ID = 'vis:switch-view';

export interface ViewChoice {
  /** What the menu shows, e.g. "History" or "Sources · g2.com". */
  label: string;
  /** The command (after `/visibility`) that shows this view, brand by id. */
  command: string;
  /** The view on screen: preselected, and its menu entry carries a check mark. */
  current?: boolean;
}

type SwitcherElement = ActionsBlock['elements'][number];

interface SelectOption {
  text: { type: 'plain_text'; text: Mrkdwn };
  value: string;
}

function option(name: string, value: string, current: boolean): SelectOption {
  const label = current ? `${name} ✓` : name;
  return {
    // No `emoji` flag: Slack's default (true) costs nothing, and a dozen options add up.
    text: { type: 'plain_text', text: truncatePlain(escapeMrkdwn(label), L.optionText) },
    value,
  };
}

/**
 * The words every choice starts with (`citations <brand id>`), carried once in the action_id
 * instead of in each option: a dozen options then cost half as much of the message.
 */
function sharedStart(commands: readonly string[]): string {
  const first = commands[0] ?? '';
  const secondSpace = first.indexOf(' ', first.indexOf(' ') + 1);
  const base = secondSpace === -1 ? '' : first.slice(0, secondSpace);
  return base !== '' && commands.every((c) => c.startsWith(`${base} `)) ? base : '';
}

/** The command a chosen option stands for (`vis:switch-view:<shared start>` + its value). */
export function switchedCommand(actionId: string, selected: string): string {
  const base = actionId.startsWith(`${SWITCH_VIEW_ACTION_ID}:`)
    ? actionId.slice(SWITCH_VIEW_ACTION_ID.length + 1)
    : '';
  return base === '' ? selected : `${base} ${selected}`;
}

/**
 * The select, or undefined when fewer than two views remain: an option value is capped at
 * 150 characters, and a choice whose command would not fit is left out rather than cut
 * (a cut command would run something else).
 */
export function viewSwitcher(choices: readonly ViewChoice[]): SwitcherElement | undefined {
  const named = choices.filter((c) => c.command.trim() !== '');
  let base = sharedStart(named.map((c) => c.command));
  if (SWITCH_VIEW_ACTION_ID.length + 1 + base.length > L.actionId) base = '';
  const seen = new Set<string>();
  const fitting = named
    .map((c) => ({ ...c, value: base === '' ? c.command : c.command.slice(base.length + 1) }))
    .filter((c) => {
      const ok = c.value.length <= L.optionValue && !seen.has(c.value);
      seen.add(c.value);
      return ok;
    })
    .slice(0, L.selectOptions);
  if (fitting.length < 2) return undefined;
  const options = fitting.map((c) => option(c.label, c.value, c.current === true));
  const current = options[fitting.findIndex((c) => c.current)];
  return {
    type: 'static_select',
    action_id: base === '' ? SWITCH_VIEW_ACTION_ID : `${SWITCH_VIEW_ACTION_ID}:${base}`,
    placeholder: { type: 'plain_text', text: mrkdwn`Switch view` },
    options,
    ...(current ? { initial_option: current } : {}),
  } as SwitcherElement;
}
