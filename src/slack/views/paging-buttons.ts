/**
 * Previous / Next buttons whose values carry everything the action handler needs to fetch
 * that page again (our buttons hold JSON). A value that would not fit Slack's 2000
 * characters (a huge filter) leaves its button out rather than sending a cut, unreadable one.
 */
import { BLOCK_KIT_LIMITS as L } from '../../messages/block-kit-limit-table.js';
import type { Button, KnownBlock } from '../../messages/block-kit-types.js';
import { type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';

interface PagingTargets {
  /** e.g. `vis:ideas:page`; the buttons are `<prefix>:prev` and `<prefix>:next`. */
  actionPrefix: string;
  previous?: Record<string, unknown> | undefined;
  next?: Record<string, unknown> | undefined;
  nextLabel?: Mrkdwn;
}

function button(actionId: string, label: Mrkdwn, value: Record<string, unknown>): Button | undefined {
  const json = JSON.stringify(value);
  if (json.length > L.buttonValue) return undefined;
  return { type: 'button', action_id: actionId, text: { type: 'plain_text', text: label }, value: json };
}

function pagingButtons(t: PagingTargets): Button[] {
  const buttons: (Button | undefined)[] = [
    t.previous ? button(`${t.actionPrefix}:prev`, mrkdwn`◀ Previous`, t.previous) : undefined,
    t.next ? button(`${t.actionPrefix}:next`, t.nextLabel ?? mrkdwn`Next ▶`, t.next) : undefined,
  ];
  return buttons.filter((b): b is Button => b !== undefined);
}

function pagingBlock(t: PagingTargets): KnownBlock | undefined {
  const elements = pagingButtons(t);
  return elements.length > 0 ? { type: 'actions', elements } : undefined;
}

interface OffsetPage {
  actionPrefix: string;
  /** What every button value carries besides `offset` (brand, filters, limit). */
  base: Record<string, unknown>;
  offset: number;
  limit: number;
  total: number;
}

/**
 * Previous/Next for a page of `shown` items from `p.offset` of `p.total`: Previous goes back
 * a whole `limit`, Next starts after the last item shown. `measuring` keeps Next, for sizing
 * the message before it is known how many items fit.
 */
export function offsetPagingBlock(p: OffsetPage, shown: number, measuring = false): KnownBlock | undefined {
  return pagingBlock({
    actionPrefix: p.actionPrefix,
    previous: p.offset > 0 ? { ...p.base, offset: Math.max(0, p.offset - p.limit) } : undefined,
    next:
      measuring || (shown > 0 && p.offset + shown < p.total)
        ? { ...p.base, offset: p.offset + shown }
        : undefined,
  });
}
