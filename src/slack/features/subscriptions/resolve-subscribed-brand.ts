/**
 * The brand of one of this channel's subscriptions, by name, prefix or id, or without a
 * name the channel's default brand (or its only subscription). Read from the database, not
 * the API: unsubscribe, settings and mute must work while the key is rejected or its quota
 * is spent, which is when people reach for them.
 */
import type { Brand } from '../../../api/schemas/index.js';
import { escapeMrkdwn, joinMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { Subscription } from '../../../store/subscriptions-repo.js';
import { channelDefaultBrandId } from '../../commands/channel-default-brand.js';
import { BrandMissingError, resolveBrand } from '../../commands/resolve-brand.js';
import type { SlackDeps } from '../../kit/slack-deps.js';

function notSubscribed(what: string, subs: readonly Subscription[]): UserError {
  const list = joinMrkdwn(
    subs.map((s) => mrkdwn`*${escapeMrkdwn(s.brandName)}*`),
    mrkdwn`, `,
  );
  return new UserError(
    UserErrorCode.NotSubscribed,
    mrkdwn`This channel is not subscribed to ${escapeMrkdwn(what)}. ${
      subs.length > 0
        ? mrkdwn`Its subscriptions: ${list}.`
        : mrkdwn`It has no subscriptions; start one with \`/visibility subscribe "Brand name"\`.`
    }`,
  );
}

export async function resolveSubscribedBrand(
  deps: Pick<SlackDeps, 'store'>,
  channelId: string,
  token: string | undefined,
): Promise<Subscription> {
  const subs = await deps.store.subscriptions.listByChannel(channelId);
  if (token === undefined || token.trim() === '') {
    const defaultId = await channelDefaultBrandId(deps.store, channelId);
    const byDefault = subs.find((s) => s.brandId === defaultId);
    if (byDefault) return byDefault;
    if (subs.length === 1) return subs[0]!;
    if (subs.length === 0) throw notSubscribed('any brand', subs);
    // With the subscribed brands, the command's answer offers them in a select that runs it again.
    throw new BrandMissingError(
      subs.map((s) => ({ id: s.brandId, name: s.brandName }) as Brand),
      mrkdwn`Which brand? This channel is subscribed to ${joinMrkdwn(
        subs.map((s) => mrkdwn`*${escapeMrkdwn(s.brandName)}*`),
        mrkdwn`, `,
      )}.`,
    );
  }
  // resolveBrand reads only id and name.
  const brands = subs.map((s) => ({ id: s.brandId, name: s.brandName }) as Brand);
  try {
    const found = resolveBrand(brands, token);
    return subs.find((s) => s.brandId === found.id)!;
  } catch (err) {
    if (err instanceof UserError && err.code === UserErrorCode.BrandUnknown)
      throw notSubscribed(`"${escapeMrkdwn(token)}"`, subs);
    throw err;
  }
}
