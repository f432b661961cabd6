/**
 * Opens a modal that changes a brand (`markets <brand> add`, `location <brand>`,
 * `aliases <brand> edit`, or the matching button). The permission checks run before the
 * modal opens: nobody fills in a form only to be told they may not save it.
 */
import type { WebClient } from '@slack/web-api';
import type { Brand } from '../../api/schemas/index.js';
import { fitView } from '../../messages/block-kit-limits.js';
import type { ModalView } from '../../messages/block-kit-types.js';
import { mrkdwn } from '../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../messages/user-error.js';
import { ensureCanEditBrand } from '../kit/permissions.js';
import type { SlackDeps } from '../kit/slack-deps.js';
import type { BrandModalMetadata } from '../views/brand-modal-metadata.js';
import type { ActionContext, ActionHandler } from './action-handler.js';
import { parseActionValue } from './parse-action-value.js';

/** What both a CommandContext and an ActionContext offer. */
export interface ModalOpener {
  /** The permission check's audit log and clock; the API, for forms that first read what they edit. */
  deps: Pick<SlackDeps, 'api' | 'auditLog' | 'clock'>;
  userId: string;
  channelId: string | undefined;
  client: WebClient;
  triggerId: string | undefined;
  requireWriter(action: string): Promise<void>;
}

/**
 * Checks that the user may make this change to the brand, then opens the view `build`
 * returns (it may first read what the form edits).
 */
export async function openBrandModal(
  o: ModalOpener,
  brand: Brand,
  action: string,
  build: (where: Omit<BrandModalMetadata, 'brandId'>) => ModalView | Promise<ModalView>,
): Promise<void> {
  await o.requireWriter(action);
  await ensureCanEditBrand(o.deps, o, brand, action);
  const view = await build(o.channelId ? { channelId: o.channelId } : {});
  if (!o.triggerId) {
    throw new UserError(
      UserErrorCode.NoTrigger,
      mrkdwn`Slack did not allow a form to open from here; run the command instead.`,
    );
  }
  await o.client.views.open({ trigger_id: o.triggerId, view: fitView(view) });
}

/**
 * Opens a brand form that asks which brand (its first input is a brand select): only the
 * writer check can run now; the brand's own check runs when the form is submitted.
 */
export async function openBrandChoosingModal(
  o: ModalOpener,
  action: string,
  build: (where: Omit<BrandModalMetadata, 'brandId'>) => ModalView,
): Promise<void> {
  await o.requireWriter(action);
  if (!o.triggerId) {
    throw new UserError(
      UserErrorCode.NoTrigger,
      mrkdwn`Slack did not allow a form to open from here; run the command instead.`,
    );
  }
  await o.client.views.open({
    trigger_id: o.triggerId,
    view: fitView(build(o.channelId ? { channelId: o.channelId } : {})),
  });
}

/** A button whose value is `{brandId}` and that opens one of a brand's edit forms. */
export function brandModalButton(
  prefix: string,
  open: (o: ModalOpener, brand: Brand) => Promise<void>,
): ActionHandler {
  return {
    prefix,
    run: async (ctx: ActionContext) => {
      const { brandId } = parseActionValue(ctx.action.value);
      if (typeof brandId !== 'string' || brandId === '') {
        throw new UserError(
          UserErrorCode.StaleAction,
          mrkdwn`That button is from an older message; run the command again.`,
        );
      }
      await open(ctx, await ctx.resolveBrand(brandId));
    },
  };
}
