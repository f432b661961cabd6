/**
 * "Snooze 24 h" on an alert (vis:alert:snooze, value {brandId, kind}, or the Snooze option
 * of an alert's menu, see alert-menu.ts): that kind of alert
 * for that brand in that channel is muted for 24 hours (DESIGN.md "Alert semantics"); the
 * person who clicked is told until when, privately, and the channel who snoozed what. Audited. Anyone who can see the alert
 * may snooze it: it only quiets this channel, and it ends by itself.
 */
import { type AlertKind, alertKinds } from '../../../alerts/types.js';
import { ALERT_ACTIONS } from '../../../messages/alert-message.js';
import { channelMention, escapeMrkdwn, mrkdwn, slackDate } from '../../../messages/mrkdwn.js';
import { textReply } from '../../../messages/reply.js';
import { UserError } from '../../../messages/user-error.js';
import { createSnoozesRepo } from '../../../store/snoozes-repo.js';
import type { ActionContext, ActionHandler } from '../../actions/action-handler.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { channelNoteText, postChannelNote, withNoteOutcome } from './post-channel-note.js';

export const SNOOZE_MS = 24 * 60 * 60 * 1000;

/** Same words as the button ("Snooze lost-citation alerts 24 h"). */
const KIND_LABEL: Readonly<Record<AlertKind, string>> = {
  citation_lost: 'Lost-citation alerts',
  citation_competitor: 'Competitor alerts',
  citation_sentiment: 'Sentiment alerts',
  crawler_drop: 'Crawler alerts',
  crawler_recovered: 'Crawler recovery notices',
  ai_pages_threshold: 'AI Pages usage alerts',
  ai_pages_disabled: 'AI Pages status alerts',
};

const isAlertKind = (k: unknown): k is AlertKind => alertKinds.includes(k as AlertKind);

/** Snoozes one kind of the brand's alerts in the clicked channel; the Snooze button and an alert's menu both end here. */
export async function snoozeAlertKind(ctx: ActionContext, brandId: string, kind: AlertKind): Promise<void> {
  const channelId = ctx.channelId;
  if (!channelId) throw new UserError('stale_action', mrkdwn`There is no channel to snooze alerts in.`);
  const now = ctx.deps.clock.now();
  const untilMs = now + SNOOZE_MS;
  createSnoozesRepo(ctx.deps.db).snooze({
    channelId,
    brandId,
    kind,
    untilMs,
    createdBy: ctx.userId,
    createdAtMs: now,
  });
  ctx.deps.auditLog.record({
    atMs: now,
    userId: ctx.userId,
    channelId,
    brandId,
    action: 'alert.snooze',
    detail: { kind, untilMs },
    result: 'ok',
  });
  const name = await ctx
    .resolveBrand(brandId)
    .then((b) => b.name)
    .catch(() => null);
  const whose = name ? mrkdwn` for *${escapeMrkdwn(name)}*` : mrkdwn``;
  const noteFailure = await postChannelNote(
    ctx.client,
    ctx.deps.logger,
    channelId,
    channelNoteText(
      ctx.userId,
      mrkdwn`snoozed ${escapeMrkdwn(KIND_LABEL[kind].toLowerCase())}${whose} in this channel until ${slackDate(untilMs)}.`,
      mrkdwn`They come back by themselves then; other alerts still come through.`,
    ),
  );
  await ctx.respond(
    withNoteOutcome(
      textReply(
        mrkdwn`:zzz: ${escapeMrkdwn(KIND_LABEL[kind])}${whose} are snoozed in ${channelMention(channelId)} until ${slackDate(untilMs)}. Other alerts still come through.`,
        { replaceOriginal: false },
      ),
      noteFailure,
    ),
  );
}

export const alertSnooze: ActionHandler = {
  prefix: ALERT_ACTIONS.snooze,
  async run(ctx) {
    const { brandId, kind } = parseActionValue(ctx.action.value);
    if (typeof brandId !== 'string' || !isAlertKind(kind))
      throw new UserError(
        'stale_action',
        mrkdwn`That button is from an older message; run the command again.`,
      );
    await snoozeAlertKind(ctx, brandId, kind);
  },
};
