/** `citations <brand> [list]`: GET /get-citations (view=list) with the list filters. */
import type { Brand } from '../../../api/schemas/index.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { citationSwitcher } from './citation-switcher.js';
import { type CitationViewArgs, noExtraWords } from './citation-view-args.js';
import {
  type CitationListFilters,
  type CitationsPageValue,
  citationsListReply,
} from './citations-list-view.js';

/** A message shows about 20 citations; more are a click on Next away. */
export const DEFAULT_CITATIONS_PAGE = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseTags(text: string | undefined, fail: (m: Mrkdwn) => Error): string[] | undefined {
  if (text === undefined) return undefined;
  const tags = text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const bad = tags.find((t) => !UUID.test(t));
  if (bad !== undefined || tags.length === 0) {
    throw fail(
      mrkdwn`\`--tags\` takes tag ids (UUIDs) separated by commas${bad ? mrkdwn`; “${escapeMrkdwn(bad.slice(0, 40))}” is not one` : mrkdwn``}.`,
    );
  }
  return tags;
}

/**
 * One page of the list (the command and the Next/Previous buttons share it), with the View
 * menu and a Share button that shares this very page (`--offset`).
 */
export async function citationsListPage(
  deps: Pick<SlackDeps, 'api'>,
  brand: Pick<Brand, 'id' | 'name'>,
  page: Omit<CitationsPageValue, 'brandId'>,
): Promise<Reply> {
  const response = await deps.api.getCitationList({
    brandId: brand.id,
    limit: page.limit,
    offset: page.offset,
    ...(page.domain ? { domain: page.domain } : {}),
    ...(page.prompt ? { promptText: page.prompt } : {}),
    ...(page.tags && page.tags.length > 0 ? { tagIds: page.tags } : {}),
  });
  const filters: CitationListFilters = { domain: page.domain, prompt: page.prompt, tags: page.tags };
  const reply = citationsListReply({ brand, filters, offset: page.offset, limit: page.limit, response });
  const share = commandText('citations', brand.id, ['list'], {
    domain: page.domain,
    prompt: page.prompt,
    tags: page.tags?.join(','),
    limit: page.limit !== DEFAULT_CITATIONS_PAGE ? page.limit : undefined,
    offset: page.offset > 0 ? page.offset : undefined,
  });
  return withShareButton(reply, share, [citationSwitcher({ brandId: brand.id, current: 'list' })]);
}

export async function runCitationsList(a: CitationViewArgs): Promise<void> {
  noExtraWords(a, 'list');
  const domain = a.flags.string('domain');
  const prompt = a.flags.string('prompt', 'prompt-text');
  const tags = parseTags(a.flags.string('tags', 'tag', 'tag-ids'), a.fail);
  const limit = a.flags.int(1, 500, 'limit');
  const offset = a.flags.int(0, 1_000_000_000, 'offset');
  a.flags.rejectUnknown();
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const reply = await citationsListPage(a.ctx.deps, brand, {
    offset: offset ?? 0,
    limit: limit ?? DEFAULT_CITATIONS_PAGE,
    domain,
    prompt,
    tags,
  });
  await a.ctx.respond(reply);
}
