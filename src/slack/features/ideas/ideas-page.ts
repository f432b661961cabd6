/**
 * One page of content ideas: the `ideas` command and the Previous/Next buttons share it.
 * Its Share button re-runs this very page (`--offset`), so page 2 shared is page 2.
 */

import type { Brand } from '../../../api/schemas/index.js';
import type { Reply } from '../../../messages/reply.js';
import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { type IdeasPageValue, ideasReply } from './ideas-view.js';

/** Ten ideas with their insights read well in one message. */
export const DEFAULT_IDEAS_PAGE = 10;

export async function ideasPage(
  deps: Pick<SlackDeps, 'api'>,
  brand: Pick<Brand, 'id' | 'name'>,
  page: Omit<IdeasPageValue, 'brandId'>,
): Promise<Reply> {
  const response = await deps.api.getContentIdeas({
    brandId: brand.id,
    limit: page.limit,
    offset: page.offset,
    // docs/api.md §4.1: without `status` every status comes back, which is what `all` means.
    ...(page.status === 'all' ? {} : { status: page.status }),
  });
  const reply = ideasReply({ brand, status: page.status, offset: page.offset, limit: page.limit, response });
  return withShareButton(reply, ideasCommandText(brand.id, page));
}

/** The command that shows this page of ideas, as Share re-runs it. */
export function ideasCommandText(brandId: string, page: Omit<IdeasPageValue, 'brandId'>): string {
  return commandText('ideas', brandId, page.status === 'active' ? [] : [page.status], {
    limit: page.limit !== DEFAULT_IDEAS_PAGE ? page.limit : undefined,
    offset: page.offset > 0 ? page.offset : undefined,
  });
}
