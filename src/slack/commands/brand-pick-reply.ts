/**
 * The answer to an ambiguous brand: the question, and one button per candidate whose value
 * is the same command with the brand's id where the ambiguous words were. The
 * `vis:pick-brand` handler runs that command, so picking answers the original question
 * without retyping.
 */
import { BLOCK_KIT_LIMITS as L } from '../../messages/block-kit-limit-table.js';
import type { Button, KnownBlock } from '../../messages/block-kit-types.js';
import { escapeMrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { errorReply, type Reply } from '../../messages/reply.js';
import { truncatePlain } from '../../messages/truncate-mrkdwn.js';
import { brandOption, brandSelect } from '../views/brand-select.js';
import { type BrandAmbiguousError, type BrandMissingError, foldBrandName } from './resolve-brand.js';

export const PICK_BRAND_ACTION_ID = 'vis:pick-brand';
/**
 * The brand select under "Which brand?": an option's value is only a brand id (Slack caps
 * it at 150 characters), so the command, less its brand, rides in the block id.
 */
export const CHOOSE_BRAND_ACTION_ID = 'vis:choose-brand';
export const CHOOSE_BRAND_BLOCK_PREFIX = 'vis:choose-brand:';
/** A static select shows at most 100 options. */
const MAX_OPTIONS = L.selectOptions;
/** Slack allows 25 elements in an actions block; more candidates than that are a list to narrow. */
const MAX_BUTTONS = 25;

const quote = (s: string) => (s === '' || /[\s"']/.test(s) ? `"${s.replace(/"/g, "'")}"` : s);

/**
 * `subcommand` and its positional arguments and flags as typed, with the arguments that
 * spelled `token` replaced by `brandId`; undefined when the token is not found among them
 * (the channel default cannot be ambiguous, so this is only a safety net).
 */
function commandForBrand(
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
  return commandText(subcommand, args, flags);
}

function commandText(
  subcommand: string,
  args: readonly string[],
  flags: Readonly<Record<string, string | true>>,
): string {
  const flagText = Object.entries(flags).map(([k, v]) => (v === true ? `--${k}` : `--${k} ${quote(v)}`));
  return [subcommand, ...args.map(quote), ...flagText].join(' ');
}

/** The command a brand chosen in the select runs: the brand goes first, where it is typed. */
export function commandWithBrandFirst(withoutBrand: string, brandId: string): string {
  const space = withoutBrand.indexOf(' ');
  return space === -1
    ? `${withoutBrand} ${brandId}`
    : `${withoutBrand.slice(0, space)} ${brandId}${withoutBrand.slice(space)}`;
}

/** "Which brand?" with a select of the brands the key sees, when the command fits. */
export function brandMissingReply(
  err: BrandMissingError,
  subcommand: string,
  positional: readonly string[],
  flags: Readonly<Record<string, string | true>>,
): Reply {
  const reply = errorReply(err);
  const blockId = `${CHOOSE_BRAND_BLOCK_PREFIX}${commandText(subcommand, positional, flags)}`;
  if (err.brands.length === 0 || blockId.length > L.blockId) return reply;
  // Up to 100 brands fit a static select, which Slack filters as the person types and the
  // demo console can list; past that, the type-ahead select asks the bot (brand-options.ts).
  const select =
    err.brands.length > MAX_OPTIONS
      ? brandSelect({ actionId: CHOOSE_BRAND_ACTION_ID, placeholder: mrkdwn`Type a brand name` })
      : {
          type: 'static_select' as const,
          action_id: CHOOSE_BRAND_ACTION_ID,
          placeholder: { type: 'plain_text' as const, text: mrkdwn`Pick a brand` },
          options: err.brands.map((b) => brandOption(b)),
        };
  const blocks: KnownBlock[] = [...reply.blocks];
  blocks.splice(1, 0, { type: 'actions', block_id: blockId, elements: [select] });
  return { ...reply, blocks };
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
