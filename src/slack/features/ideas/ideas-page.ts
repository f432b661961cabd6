/** One page of content ideas: the `ideas` command and the Previous/Next buttons share it. */

import type { Brand } from '../../../api/schemas/index.js';
import type { Reply } from '../../../messages/reply.js';
import type { SlackDeps } from '../../slack-deps.js';
import { type IdeasPageValue, ideasReply } from './ideas-view.js';

/** Ten ideas with their insights read well in one message. */
export const DEFAULT_IDEAS_PAGE = 10;

export async function ideasPage(
  deps: Pick<SlackDeps, 'api'>,
  brand: Pick<Brand, 'id' | 'name'>,
  page: Omit<IdeasPageValue, 'brandId'>,
): Promise<Reply> {
  const response = await deps.api.getContentIdeas(
    {
      brandId: brand.id,
      limit: page.limit,
      offset: page.offset,
      // API.md §4.1: without `status` every status comes back, which is what `all` means.
      ...(page.status === 'all' ? {} : { status: page.status }),
    },
    { lane: 'interactive' },
  );
  return ideasReply({ brand, status: page.status, offset: page.offset, limit: page.limit, response });
}
