/**
 * The "Edit aliases" form: the list saved replaces the current one (docs/api.md §4.7). One
 * alias per line or comma-separated; duplicates are folded silently (the service does the
 * same), an alias longer than ALIAS_MAX is shown under the input.
 */

import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { BRAND_WRITES } from '../../kit/brand-writes.js';
import { textValue } from '../../submissions/read-input.js';
import { saveBrandForm } from '../../submissions/save-brand-form.js';
import type { SubmissionHandler } from '../../submissions/submission-handler.js';
import { ALIAS_MAX, dedupeAliases, splitAliases } from './alias-list.js';
import { ALIASES_BLOCK_ID, ALIASES_CALLBACK_ID } from './aliases-modal.js';
import { aliasesChangedReply } from './aliases-view.js';

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
    return saveBrandForm(ctx, {
      action: BRAND_WRITES.setAliases,
      detail: { op: 'set', aliases, via: 'modal' },
      write: (brand) => ctx.deps.api.setAliases({ brandId: brand.id, aliases }),
      // The cached brand list carries aliases, which the brand resolver matches.
      invalidatesBrands: true,
      errorBlockId: ALIASES_BLOCK_ID,
      confirm: (brand, result) => aliasesChangedReply(brand.name, result.aliases, { added: [], removed: [] }),
    });
  },
};
