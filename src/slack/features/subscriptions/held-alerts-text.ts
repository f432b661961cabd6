/**
 * What became of the held alerts after a hold changed (unmute, Undo snooze, settings), in
 * one sentence or two: the ones released are being posted now (the relay was nudged), and
 * the ones still held say until when and why. Only what the bot does: no "shortly".
 */

import { agree, counted } from '../../../figures/plural.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDate } from '../../../messages/mrkdwn.js';
import type { HeldAlerts, HoldReason } from '../../../use-cases/change-holds.js';

const WHY: Readonly<Record<HoldReason, string>> = {
  mute: 'the mute',
  snooze: 'a snooze',
  quiet_hours: 'quiet hours',
};

/** Empty when nothing was held. Starts with a space, to follow a sentence. */
export function heldAlertsText(outcome: HeldAlerts): Mrkdwn {
  const parts: Mrkdwn[] = [];
  const { released, stillHeld } = outcome;
  if (released > 0) {
    parts.push(
      escapeMrkdwn(
        released === 1
          ? 'The held alert message is being posted now.'
          : `The ${counted(released, 'held alert message')} are being posted now, together.`,
      ),
    );
  }
  const byReason = new Map<HoldReason, number[]>();
  for (const h of stillHeld) byReason.set(h.reason, [...(byReason.get(h.reason) ?? []), h.untilMs]);
  for (const [reason, ends] of byReason) {
    const n = ends.length;
    const who = released > 0 ? `${n} more` : counted(n, 'held alert message');
    parts.push(
      mrkdwn`${escapeMrkdwn(`${who} ${agree(n, 'waits', 'wait')} for ${WHY[reason]}, until`)} ${slackDate(Math.max(...ends))}.`,
    );
  }
  return parts.length === 0 ? mrkdwn`` : mrkdwn` ${joinMrkdwn(parts, mrkdwn` `)}`;
}
