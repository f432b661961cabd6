/**
 * The type-ahead brand select: an `external_select` whose options Slack asks the bot for
 * as the person types (a block_suggestion request, answered by actions/brand-options.ts
 * from the cached brand list). A static select would stop at 100 brands and match only
 * names; this one matches aliases too. An option's value is the brand id; its text is the
 * brand's name, with the alias that matched when the name did not.
 */
import type { Brand } from '../../api/schemas/index.js';
import { BLOCK_KIT_LIMITS as L } from '../../messages/block-kit-limit-table.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { truncatePlain } from '../../messages/truncate-mrkdwn.js';

/** The action_id of a brand select in a modal; the options route answers for it. */
export const BRAND_SELECT_ACTION_ID = 'vis:brand-select';

export interface BrandOption {
  text: { type: 'plain_text'; text: Mrkdwn; emoji: false };
  value: string;
}

/**
 * Option text is plain_text: no formatting applies, but `&`, `<` and `>` are still escaped
 * as in every text field (docs/slack.md), and a name never turns into a mention or a link.
 */
export function brandOption(brand: Pick<Brand, 'id' | 'name'>, alias?: string): BrandOption {
  const label = alias === undefined ? brand.name : `${brand.name} (alias “${alias}”)`;
  return {
    text: { type: 'plain_text', text: truncatePlain(escapeMrkdwn(label), L.optionText), emoji: false },
    value: brand.id,
  };
}

interface BrandSelectOptions {
  actionId?: string;
  /** The brand already chosen (a form opened for one). */
  initial?: Pick<Brand, 'id' | 'name'>;
  placeholder?: Mrkdwn;
}

export function brandSelect(o: BrandSelectOptions = {}) {
  return {
    type: 'external_select' as const,
    action_id: o.actionId ?? BRAND_SELECT_ACTION_ID,
    placeholder: { type: 'plain_text' as const, text: o.placeholder ?? mrkdwn`Type a brand name or alias` },
    // Zero: the list shows as soon as the menu opens, before anything is typed.
    min_query_length: 0,
    ...(o.initial ? { initial_option: brandOption(o.initial) } : {}),
  };
}
