/**
 * What a "Post chart to channel" click does once it is acknowledged: fetch the view's data,
 * draw the chart and upload it into the channel, all in the background (the click's
 * answer never waits for a picture), through the process's renderer (deps.charts: a few
 * renders at a time, shared with the digest charts, in worker threads under `serve`).
 * Whatever goes wrong reaches the person who clicked as an ephemeral message: the bot not
 * in the channel, a chart that could not be drawn, an API error.
 */
import { ErrorCode } from '@slack/web-api';
import type { ChartSpec } from '../../charts/chart-spec.js';
import { ChartError } from '../../charts/errors.js';
import { escapeMrkdwn, mrkdwn, userMention } from '../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../messages/user-error.js';
import { FileUploadError, uploadFile } from '../../slack-client/upload-file.js';
import { reportError } from '../kit/report-error.js';
import type { ActionContext } from './action-handler.js';

const NOT_POSTABLE: Readonly<Record<string, string>> = {
  not_in_channel:
    'I am not a member of this channel. Invite me with `/invite @visibility-bot`, then click the button again.',
  channel_not_found:
    'I cannot post in this conversation. Invite me to a channel with `/invite @visibility-bot` and try there.',
  is_archived: 'This channel is archived, so nothing can be posted in it.',
};

/** Slack's and the renderer's failures, in words for the person who clicked. */
function asUserError(err: unknown): unknown {
  const code =
    (err as { code?: unknown; data?: { error?: unknown } })?.code === ErrorCode.PlatformError
      ? String((err as { data?: { error?: unknown } }).data?.error)
      : undefined;
  const notPostable = code ? NOT_POSTABLE[code] : undefined;
  if (notPostable)
    return new UserError(
      UserErrorCode.ChartNotPostable,
      mrkdwn`The chart could not be posted: ${escapeMrkdwn(notPostable)}`,
      undefined,
      { cause: err },
    );
  if (err instanceof ChartError)
    return new UserError(
      UserErrorCode.ChartFailed,
      mrkdwn`The chart could not be drawn. The figures in the reply are complete without it.`,
      undefined,
      { cause: err },
    );
  if (err instanceof FileUploadError)
    return new UserError(
      UserErrorCode.ChartUploadFailed,
      mrkdwn`Slack did not take the chart image; try again in a minute.`,
      undefined,
      { cause: err },
    );
  return err;
}

export function postChart(ctx: ActionContext, draw: () => Promise<ChartSpec>): void {
  const { deps } = ctx;
  const channel = ctx.channelId;
  void deps.background.run(async () => {
    try {
      if (!channel)
        throw new UserError(
          UserErrorCode.ChartNotPostable,
          mrkdwn`There is no channel to post the chart in.`,
        );
      const spec = await draw();
      const chart = await deps.charts.render(spec);
      await uploadFile(ctx.client, {
        channel,
        bytes: chart.png,
        fileName: chart.fileName,
        title: spec.title,
        altText: chart.altText,
        initialComment: mrkdwn`${escapeMrkdwn(spec.title)}, posted by ${userMention(ctx.userId)}`,
      });
    } catch (err) {
      if (err instanceof ChartError || err instanceof FileUploadError)
        deps.logger.error({ err }, 'chart could not be posted');
      await reportError(asUserError(err), { logger: deps.logger, respond: ctx.respond, label: 'chart' });
    }
  });
}
