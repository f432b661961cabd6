/**
 * `subscribe <brand> [alerts|digest]`, run in the channel that should receive them (both
 * when the kind is left out; adding one to an existing subscription keeps the other).
 *
 * Channels only (not DMs or group DMs, whose history the bot's scopes cannot read), and
 * the bot must be able to post there (else: how to invite it). Citation events are
 * baselined silently (DESIGN.md): the current feed is read and recorded in the same
 * transaction that creates the subscription, so the first run alerts only on what changes
 * afterwards. Levels (crawler, AI Pages) alert on first sight. Admins only when
 * SLACK_ADMIN_USERS is set; audited.
 */
import { baselineCitationsForSubscription, feedDaysBack } from '../../../jobs/citations-job.js';
import { fetchCitationFeed } from '../../../jobs/fetch-citation-feed.js';
import { UserError } from '../../../messages/user-error.js';
import { createCitationStateRepo } from '../../../store/citation-state-repo.js';
import { createJobRunsRepo } from '../../../store/job-runs-repo.js';
import { createOutboxRepo } from '../../../store/outbox-repo.js';
import { createSnoozesRepo } from '../../../store/snoozes-repo.js';
import { createSubscriptionsRepo, type Subscription } from '../../../store/subscriptions-repo.js';
import { transaction } from '../../../store/transaction.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { CHANNELS_ONLY_HINT, ensureBotCanPost, isDirectConversation } from './ensure-bot-can-post.js';
import { splitKind } from './split-kind.js';
import { SUBSCRIPTION_WRITES } from './subscription-writes.js';
import { subscribedReply } from './subscriptions-view.js';

/** Other channels' live alert subscriptions to the brand: they share its citation state. */
const watchers = (subs: readonly Subscription[], channelId: string) =>
  subs.filter((s) => s.alerts && !s.pausedReason && s.channelId !== channelId);

export const subscribe: Subcommand = {
  name: 'subscribe',
  group: 'Alerts',
  usage: '/visibility subscribe <brand> [alerts|digest]',
  summary:
    'Send this channel alerts and the daily digest for a brand (run it in that channel; both unless you name one). Alerts: lost citations, competitors on cited pages, sentiment drops, AI crawler visit drops, AI Pages usage. The digest comes daily at 09:00 in the bot’s time zone; change it with settings.',
  examples: [
    '/visibility subscribe "Acme Analytics"',
    '/visibility subscribe "Acme Analytics" alerts',
    '/visibility subscribe "Acme Analytics" digest',
  ],
  async run(ctx) {
    const { deps, channelId, userId } = ctx;
    const { brandToken, kind } = splitKind(ctx.args.positional);
    // Said first, to everyone: in a DM the answer is "not here", whoever asks.
    if (isDirectConversation(channelId, ctx.channelName))
      throw new UserError('not_a_channel', CHANNELS_ONLY_HINT);
    await ctx.requireWriter(SUBSCRIPTION_WRITES.subscribe);
    const brand = await ctx.resolveBrand(brandToken);
    await ensureBotCanPost(ctx.client, channelId);

    const subs = createSubscriptionsRepo(deps.db);
    const jobRuns = createJobRunsRepo(deps.db, deps.clock);
    const existing = subs.get(channelId, brand.id);
    const alerts = kind !== 'digest' || existing?.alerts === true;
    const digest = kind !== 'alerts' || existing?.digest === true;
    // A subscription that already alerts keeps its state; a new or resumed one is baselined.
    const baseline = alerts && !(existing?.alerts && !existing.pausedReason);

    const feed = baseline
      ? await fetchCitationFeed(
          deps.api,
          brand.id,
          feedDaysBack(
            watchers(subs.listByBrand(brand.id), channelId).length > 0
              ? jobRuns.lastSuccess('citations', brand.id)
              : null,
            deps.clock.now(),
          ),
          { lane: ctx.lane },
        )
      : null;

    const now = deps.clock.now();
    const { subscription, created } = transaction(deps.db, () => {
      if (feed) {
        const outbox = createOutboxRepo(deps.db);
        baselineCitationsForSubscription(
          {
            citationState: createCitationStateRepo(deps.db),
            sink: {
              outbox,
              snoozes: createSnoozesRepo(deps.db),
              defaultTimezone: deps.config.defaultTimezone,
            },
          },
          brand.id,
          feed,
          watchers(subs.listByBrand(brand.id), channelId),
          now,
        );
        jobRuns.recordBrandSuccess('citations', brand.id, now);
      }
      return subs.upsert({
        channelId,
        brandId: brand.id,
        brandName: brand.name,
        alerts,
        digest,
        createdBy: userId,
        createdAtMs: now,
      });
    });
    deps.auditLog.record({
      atMs: now,
      userId,
      channelId,
      brandId: brand.id,
      action: SUBSCRIPTION_WRITES.subscribe,
      detail: { alerts, digest, created, baselined: feed !== null },
      result: 'ok',
    });
    await ctx.respond(
      subscribedReply(subscription, { created, defaultTimezone: deps.config.defaultTimezone }),
    );
  },
};
