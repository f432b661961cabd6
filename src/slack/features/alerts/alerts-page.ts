/**
 * One page of a brand's alert history: the `alerts` command and its Previous/Next buttons
 * share it. Entries whose message has no permalink yet (posted before the bot kept them, or
 * Slack did not answer then) are asked for one now, and it is kept.
 */
import type { WebClient } from '@slack/web-api';
import type { Reply } from '../../../messages/reply.js';
import type { AlertState } from '../../../store/alert-states-repo.js';
import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { ALERTS_PAGE_SIZE, type AlertsPageValue, alertsReply } from './alerts-view.js';

const DAY_MS = 86_400_000;
export const DEFAULT_ALERT_DAYS = 30;

async function withPermalink(
  deps: Pick<SlackDeps, 'store' | 'logger'>,
  client: WebClient,
  s: AlertState,
): Promise<AlertState> {
  if (s.permalink) return s;
  try {
    const res = await client.chat.getPermalink({ channel: s.channelId, message_ts: s.messageTs });
    if (!res.permalink) return s;
    await deps.store.alertStates.setPermalink(s.id, res.permalink);
    return { ...s, permalink: res.permalink };
  } catch {
    // Deleted, or the bot left the channel: listed without a link.
    return s;
  }
}

export async function alertsPage(
  deps: Pick<SlackDeps, 'store' | 'logger' | 'clock'>,
  client: WebClient,
  brand: { id: string; name: string },
  page: Omit<AlertsPageValue, 'brandId'>,
): Promise<Reply> {
  const { states, total } = await deps.store.alertStates.list({
    brandId: brand.id,
    filter: page.filter,
    sinceMs: deps.clock.now() - page.days * DAY_MS,
    offset: page.offset,
    limit: ALERTS_PAGE_SIZE,
  });
  const linked = await Promise.all(states.map((s) => withPermalink(deps, client, s)));
  const reply = alertsReply({ ...page, brandId: brand.id, brandName: brand.name, states: linked, total });
  return withShareButton(
    reply,
    commandText('alerts', brand.id, page.filter === 'all' ? [] : [page.filter], {
      days: page.days !== DEFAULT_ALERT_DAYS ? page.days : undefined,
      offset: page.offset > 0 ? page.offset : undefined,
    }),
  );
}
