/**
 * A candidate's button under "… matches Acme Analytics, Acme Labs. Which one?": its value
 * is the command with that brand's id (commands/brand-pick-reply.ts); it runs as if typed,
 * by the person who clicked, and its answer replaces the question.
 */
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { ActionHandler } from '../../actions/action-handler.js';
import {
  CHOOSE_BRAND_ACTION_ID,
  CHOOSE_BRAND_BLOCK_PREFIX,
  commandWithBrandFirst,
  PICK_BRAND_ACTION_ID,
} from '../../commands/brand-pick-reply.js';
import { parseSubcommandText, runSubcommandFromAction } from './run-subcommand-from-action.js';

export const pickBrand: ActionHandler = {
  prefix: PICK_BRAND_ACTION_ID,
  async run(ctx) {
    const text = ctx.action.value?.trim();
    if (!text)
      throw new UserError(
        UserErrorCode.StaleAction,
        mrkdwn`That button is from an older message; run the command again.`,
      );
    await runSubcommandFromAction(ctx, parseSubcommandText(text), (reply) =>
      ctx.respond({ ...reply, replaceOriginal: true }),
    );
  },
};

/** The select under "Which brand?": the command (from the block id) with the brand chosen. */
export const chooseBrand: ActionHandler = {
  prefix: CHOOSE_BRAND_ACTION_ID,
  async run(ctx) {
    const blockId = ctx.action.blockId ?? '';
    const brandId = ctx.action.selectedOption;
    if (!blockId.startsWith(CHOOSE_BRAND_BLOCK_PREFIX) || !brandId)
      throw new UserError(
        UserErrorCode.StaleAction,
        mrkdwn`That menu is from an older message; run the command again.`,
      );
    const text = commandWithBrandFirst(blockId.slice(CHOOSE_BRAND_BLOCK_PREFIX.length), brandId);
    await runSubcommandFromAction(ctx, parseSubcommandText(text), (reply) =>
      ctx.respond({ ...reply, replaceOriginal: true }),
    );
  },
};
