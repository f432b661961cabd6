/**
 * The answer to an ambiguous brand: the question, and one button per candidate whose value
 * is the same command with the brand's id where the ambiguous words were. The
 * `vis:pick-brand` handler runs that command, so picking answers the original question
 * without retyping.
 */
import { BLOCK_KIT_LIMITS as L } from '../../messages/block-kit-limit-table.js';
import type { Button, KnownBlock } from '../../messages/block-kit-types.js';
import { escapeMrkdwn } from '../../messages/mrkdwn.js';
import { errorReply, type Reply } from '../../messages/reply.js';
import { truncatePlain } from '../../messages/truncate-mrkdwn.js';
import { type BrandAmbiguousError, foldBrandName } from './resolve-brand.js';

export const PICK_BRAND_ACTION_ID = 'vis:pick-brand';
/** Slack allows 25 elements in an actions block; more candidates than that are a list to narrow. */
const MAX_BUTTONS = 25;

const quote = (s: string) => (s === '' || /[\s"']/.test(s) ? `"${s.replace(/"/g, "'")}"` : s);

/**
 * `subcommand` and its positional arguments and flags as typed, with the arguments that
 * spelled `token` replaced by `brandId`; undefined when the token is not found among them
 * (the channel default cannot be ambiguous, so this is only a safety net).
 */
export function commandForBrand(
  subcommand: string,
  positional: readonly string[],
  flags: Readonly<Record<string, string | true>>,
  token: string,
  brandId: string,
): string | undefined {
  const wanted = foldBrandName(token);
  let args: string[] | undefined;
  for (let start = 0; start < positional.length && !args; start += 1) {
    for (let end = start + 1; end <= positional.length; end += 1) {
      if (foldBrandName(positional.slice(start, end).join(' ')) === wanted) {
        args = [...positional.slice(0, start), brandId, ...positional.slice(end)];
        break;
      }
    }
  }
  if (!args) return undefined;
  const flagText = Object.entries(flags).map(([k, v]) => (v === true ? `--${k}` : `--${k} ${quote(v)}`));
  return [subcommand, ...args.map(quote), ...flagText].join(' ');
}

export function brandPickReply(
  err: BrandAmbiguousError,
  subcommand: string,
  positional: readonly string[],
  flags: Readonly<Record<string, string | true>>,
): Reply {
  const reply = errorReply(err);
  const buttons: Button[] = [];
  const names = err.candidates.map((b) => b.name);
  for (const brand of err.candidates.slice(0, MAX_BUTTONS)) {
    // Two brands with one name are told apart by the start of their ids.
    const twin = names.indexOf(brand.name) !== names.lastIndexOf(brand.name);
    const label = twin ? `${brand.name} (${brand.id.slice(0, 8)})` : brand.name;
    const text = commandForBrand(subcommand, positional, flags, err.token, brand.id);
    if (text === undefined || text.length > L.buttonValue) continue;
    buttons.push({
      type: 'button',
      action_id: `${PICK_BRAND_ACTION_ID}:${buttons.length}`,
      text: { type: 'plain_text', text: truncatePlain(escapeMrkdwn(label), L.buttonText), emoji: false },
      value: text,
    });
  }
  if (buttons.length === 0) return reply;
  const blocks: KnownBlock[] = [...reply.blocks];
  // The buttons go right under the question, before the usage line.
  blocks.splice(1, 0, { type: 'actions', block_id: PICK_BRAND_ACTION_ID, elements: buttons });
  return { ...reply, blocks };
}
