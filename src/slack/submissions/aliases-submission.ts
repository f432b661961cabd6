/**
 * The "Edit aliases" form: the list saved replaces the current one (API.md §4.7). One
 * alias per line or comma-separated; duplicates are folded silently (the service does the
 * same), an alias longer than ALIAS_MAX is shown under the input.
 */
import { ALIAS_MAX, dedupeAliases, splitAliases } from '../alias-list.js';
import { auditedWrite } from '../audited-write.js';
import { BRAND_WRITES } from '../brand-writes.js';
import { ensureCanEditBrand } from '../permissions.js';
import { tellUser } from '../tell-user.js';
import { ALIASES_BLOCK_ID, ALIASES_CALLBACK_ID } from '../views/aliases-modal.js';
import { aliasesChangedReply } from '../views/aliases-view.js';
import { truncatePlain } from '../views/truncate-mrkdwn.js';
import { brandForSubmission } from './brand-for-submission.js';
import { inlineServiceError } from './inline-service-error.js';
import { textValue } from './read-input.js';
import type { SubmissionHandler } from './submission-handler.js';

export const aliasesSubmission: SubmissionHandler = {
  callbackId: ALIASES_CALLBACK_ID,
  async run(ctx) {
    const aliases = dedupeAliases(splitAliases(textValue(ctx.values, ALIASES_BLOCK_ID)));
    const tooLong = aliases.filter((a) => a.length > ALIAS_MAX);
    if (tooLong.length > 0) {
      return {
        errors: {
          [ALIASES_BLOCK_ID]: `An alias can have at most ${ALIAS_MAX} characters: "${truncatePlain(tooLong[0]!, 40)}" has ${tooLong[0]!.length}.`,
        },
      };
    }
    const action = BRAND_WRITES.setAliases;
    await ctx.requireWriter(action);
    const { brand, meta } = await brandForSubmission(ctx);
    const actor = { userId: ctx.userId, channelId: meta.channelId };
    ensureCanEditBrand(ctx.deps, actor, brand, action);
    try {
      const result = await auditedWrite(
        ctx.deps,
        actor,
        { brandId: brand.id, action, detail: { op: 'set', aliases, via: 'modal' } },
        () => ctx.deps.api.setAliases({ brandId: brand.id, aliases }, { lane: ctx.lane }),
      );
      return {
        close: true,
        afterAck: () =>
          tellUser(
            ctx.client,
            actor,
            aliasesChangedReply(brand.name, result.aliases, { added: [], removed: [] }),
            ctx.deps.logger,
          ),
      };
    } catch (err) {
      const inline = inlineServiceError(err, ALIASES_BLOCK_ID);
      if (inline) return inline;
      throw err;
    }
  },
};
