/**
 * The Brand Visibility API over HTTP: one typed method per endpoint of docs/api.md §4. Each
 * method validates its parameters (nothing is sent for a bad one), maps camelCase to the
 * wire names, lets the Transport do the exchange, and types the answer with its schema.
 */
import type { Dispatcher } from 'undici';
import type * as z from 'zod/mini';
import { type Clock, systemClock } from '../clock.js';
import { type Logger, silentLogger } from '../logger.js';
import { saysAlreadyGenerating } from './already-generating.js';
import { ENDPOINTS, type EndpointKey } from './endpoint-table.js';
import { extractErrorMessage } from './error-message.js';
import { NotFoundError } from './errors.js';
import { type LazyAgent, lazyAgent } from './lazy-undici.js';
import type { LimiterState, RateLimiter } from './limiter/types.js';
import { parseResponse } from './parse-response.js';
import type * as Schemas from './schemas/index.js';
import type {
  AiPagesRecord,
  AliasesResponse,
  BrandsResponse,
  CitationFeedResponse,
  CitationHeatmapResponse,
  CitationHistoryResponse,
  CitationListResponse,
  CitationQueriesResponse,
  CitationSourcesResponse,
  CitationView,
  ContentIdeasResponse,
  CrawlerOverview,
  LocationResponse,
  LoosePayload,
  Market,
  RefreshIdeasResult,
  RemoveMarketResponse,
} from './schemas/index.js';
import { ideaStatuses, pageStatuses } from './schemas/values.js';
import { type QueryValue, type ResponseEvent, type SendRequest, Transport } from './transport.js';
import {
  assertBrandId,
  assertDateRange,
  assertHttpUrl,
  assertIntInRange,
  assertIso2,
  assertList,
  assertNonEmpty,
  assertOffset,
  assertOneOf,
  assertOptionalNonEmpty,
  assertUuid,
} from './validate-params.js';
import type {
  AddMarketParams,
  BrandParams,
  CallOptions,
  CitationFeedParams,
  CitationFilterParams,
  CitationHistoryParams,
  CitationSourcesParams,
  ContentIdeasParams,
  CrawlerDrawerParams,
  CrawlerLiveParams,
  CrawlerOverviewParams,
  CrawlerPagesParams,
  DateRangeParams,
  GetBrandsParams,
  PreviewFixParams,
  RemoveMarketParams,
  SetAliasesParams,
  SetLocationParams,
  SubmitToSearchParams,
  VisibilityApi,
} from './visibility-api.js';

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  limiter: RateLimiter;
  logger?: Logger;
  clock?: Clock;
  /** Defaults 5 s / 15 s / 30 s. `connectMs` applies only to the default dispatcher. */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  retry?: { maxRetries?: number; baseDelayMs?: number; maxDelayMs?: number; max429Retries?: number };
  /** Jitter source, [0, 1). */
  random?: () => number;
  /** Default: a keep-alive undici Agent owned (and closed) by the client, created on the first request. */
  dispatcher?: Dispatcher;
  /** Metrics hook, called after every attempt. */
  onResponse?: (e: ResponseEvent) => void;
}

/**
 * The response schemas, built when the first response arrives rather than at start-up:
 * building them is most of what zod costs a process, and a `run-job` with nothing to do
 * sends no request at all. A method names its schema by choosing it from the module.
 */
type PickSchema<S extends z.ZodMiniType> = (schemas: typeof Schemas) => S;
let schemasLoading: Promise<typeof Schemas> | undefined;
const responseSchemas = (): Promise<typeof Schemas> => {
  schemasLoading ??= import('./schemas/index.js');
  return schemasLoading;
};

const DEFAULT_TIMEOUTS = { connectMs: 5_000, headersMs: 15_000, bodyMs: 30_000 };
const DEFAULT_RETRY = { maxRetries: 3, baseDelayMs: 250, maxDelayMs: 8_000, max429Retries: 4 };
const IDEAS_LIMIT = [1, 200] as const;
const CITATIONS_LIMIT = [1, 500] as const;
const CRAWLER_LIMIT = [1, 100] as const;

export class ApiClient implements VisibilityApi {
  readonly #transport: Transport;
  readonly #limiter: RateLimiter;
  readonly #ownedDispatcher: LazyAgent | undefined;

  constructor(options: ApiClientOptions) {
    const timeouts = { ...DEFAULT_TIMEOUTS, ...definedOnly(options.timeouts) };
    this.#ownedDispatcher = options.dispatcher
      ? undefined
      : lazyAgent({
          connect: { timeout: timeouts.connectMs },
          keepAliveTimeout: 30_000,
          connections: 16,
          headersTimeout: timeouts.headersMs,
          bodyTimeout: timeouts.bodyMs,
        });
    this.#limiter = options.limiter;
    this.#transport = new Transport({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      limiter: options.limiter,
      logger: (options.logger ?? silentLogger()).child({ component: 'api' }),
      clock: options.clock ?? systemClock,
      dispatcher: options.dispatcher ? () => options.dispatcher! : () => this.#ownedDispatcher!.get(),
      headersTimeoutMs: timeouts.headersMs,
      bodyTimeoutMs: timeouts.bodyMs,
      retry: { ...DEFAULT_RETRY, ...definedOnly(options.retry) },
      random: options.random ?? Math.random,
      onResponse: options.onResponse,
    });
  }

  /** Closes the connection pool the client created; an injected dispatcher and the limiter stay open. */
  async close(): Promise<void> {
    await this.#ownedDispatcher?.close();
  }

  limiterState(): LimiterState {
    return this.#limiter.state();
  }

  // ---- Content ideas (docs/api.md §4.1, §4.2)

  async getContentIdeas(params: ContentIdeasParams, opts?: CallOptions): Promise<ContentIdeasResponse> {
    assertBrandId(params.brandId);
    assertIntInRange('limit', params.limit, ...IDEAS_LIMIT);
    assertOffset(params.offset);
    assertOneOf('status', params.status, ideaStatuses);
    const query = {
      brand_id: params.brandId,
      limit: params.limit,
      offset: params.offset,
      status: params.status,
    };
    return this.#get('getContentIdeas', (s) => s.contentIdeasResponseSchema, query, opts);
  }

  async refreshContentIdeas(params: BrandParams, opts?: CallOptions): Promise<RefreshIdeasResult> {
    assertBrandId(params.brandId);
    const raw = await this.#send('refreshContentIdeas', {
      ...callOptions(opts),
      body: { brand_id: params.brandId, action: 'refresh' },
      // docs/api.md §4.2 leaves the shape of "already_generating" open: seen as a 409 (or other
      // 4xx) error body of any of the three shapes. 401/403/429 mean something else.
      recover: (status, body) =>
        status >= 400 && status < 500 && status !== 401 && status !== 403 && saysAlreadyGenerating(body)
          ? { status: 'already_generating', message: body.message ?? null }
          : undefined,
    });
    const parsed = await this.#parse('refreshContentIdeas', (s) => s.refreshIdeasResponseSchema, raw);
    const message = parsed.message ?? null;
    // The 200 form: {"status": "already_generating"} (the message may say it instead).
    if (saysAlreadyGenerating(extractErrorMessage(parsed))) return { status: 'already_generating', message };
    return { status: 'generating', message };
  }

  // ---- Brands and markets (docs/api.md §4.3–4.7)

  async getBrands(params: GetBrandsParams = {}, opts?: CallOptions): Promise<BrandsResponse> {
    if (params.brandId !== undefined) assertBrandId(params.brandId);
    if (params.include !== undefined) {
      for (const item of params.include) assertOneOf('include', item, ['markets', 'aliases'] as const);
    }
    const include =
      params.include && params.include.length > 0 ? [...new Set(params.include)].join(',') : undefined;
    return this.#get('getBrands', (s) => s.brandsResponseSchema, { brand_id: params.brandId, include }, opts);
  }

  async addMarket(params: AddMarketParams, opts?: CallOptions): Promise<Market> {
    assertBrandId(params.brandId);
    assertIso2('location', params.location);
    assertOptionalNonEmpty('marketName', params.marketName);
    const body = {
      brand_id: params.brandId,
      location: params.location.toUpperCase(),
      market_name: params.marketName?.trim(),
    };
    return this.#write('addMarket', (s) => s.marketSchema, body, opts);
  }

  async removeMarket(params: RemoveMarketParams, opts?: CallOptions): Promise<RemoveMarketResponse> {
    assertBrandId(params.brandId);
    assertUuid('marketId', params.marketId, 'a market id');
    const raw = await this.#send('removeMarket', {
      ...callOptions(opts),
      query: { brand_id: params.brandId, market_id: params.marketId },
      allowEmpty: true,
    });
    return this.#parse('removeMarket', (s) => s.removeMarketResponseSchema, raw);
  }

  async setLocation(params: SetLocationParams, opts?: CallOptions): Promise<LocationResponse> {
    assertBrandId(params.brandId);
    // docs/api.md §4.6: ISO-2, the alias UK or a full country name are all accepted.
    assertNonEmpty('country', params.country, ' (a country code such as GB, or a country name)');
    assertOptionalNonEmpty('region', params.region);
    assertOptionalNonEmpty('city', params.city);
    assertIntInRange('providerCode', params.providerCode, 0, Number.MAX_SAFE_INTEGER);
    const body = {
      brand_id: params.brandId,
      country: params.country.trim(),
      location_region: params.region?.trim(),
      location_city: params.city?.trim(),
      location_provider_code: params.providerCode,
    };
    return this.#write('setLocation', (s) => s.locationResponseSchema, body, opts);
  }

  async setAliases(params: SetAliasesParams, opts?: CallOptions): Promise<AliasesResponse> {
    assertBrandId(params.brandId);
    // An empty list is allowed: it removes every alias (docs/api.md §4.7: the list replaces all).
    assertList('aliases', params.aliases, 0);
    params.aliases.forEach((alias, i) => {
      assertNonEmpty(`aliases[${i}]`, alias);
    });
    const body = { brand_id: params.brandId, aliases: params.aliases.map((a) => a.trim()) };
    return this.#write('setAliases', (s) => s.aliasesResponseSchema, body, opts);
  }

  // ---- Citations (docs/api.md §4.8): one endpoint, one method per view

  async getCitationList(params: CitationFilterParams, opts?: CallOptions): Promise<CitationListResponse> {
    return this.#citations('list', (s) => s.citationListResponseSchema, this.#citationFilters(params), opts);
  }

  async getCitationQueries(
    params: CitationFilterParams,
    opts?: CallOptions,
  ): Promise<CitationQueriesResponse> {
    return this.#citations(
      'queries',
      (s) => s.citationQueriesResponseSchema,
      this.#citationFilters(params),
      opts,
    );
  }

  async getCitationHeatmap(
    params: CitationFilterParams,
    opts?: CallOptions,
  ): Promise<CitationHeatmapResponse> {
    return this.#citations(
      'heatmap',
      (s) => s.citationHeatmapResponseSchema,
      this.#citationFilters(params),
      opts,
    );
  }

  async getCitationHistory(
    params: CitationHistoryParams,
    opts?: CallOptions,
  ): Promise<CitationHistoryResponse> {
    assertBrandId(params.brandId);
    assertIntInRange('days', params.days, 7, 365);
    const query = { brand_id: params.brandId, days: params.days };
    return this.#citations('history', (s) => s.citationHistoryResponseSchema, query, opts);
  }

  async getCitationSources(
    params: CitationSourcesParams,
    opts?: CallOptions,
  ): Promise<CitationSourcesResponse> {
    assertBrandId(params.brandId);
    // docs/api.md §7: view=sources without a domain is a 400; catch it before spending a request.
    assertNonEmpty('domain', params.domain, ' for the sources view (an exact domain such as example.com)');
    assertIntInRange('limit', params.limit, ...CITATIONS_LIMIT);
    assertOffset(params.offset);
    const query = {
      brand_id: params.brandId,
      domain: params.domain.trim(),
      limit: params.limit,
      offset: params.offset,
    };
    return this.#citations('sources', (s) => s.citationSourcesResponseSchema, query, opts);
  }

  async getCitationFeed(params: CitationFeedParams, opts?: CallOptions): Promise<CitationFeedResponse> {
    assertBrandId(params.brandId);
    assertIntInRange('daysBack', params.daysBack, 1, 30);
    assertIntInRange('limit', params.limit, ...CITATIONS_LIMIT);
    assertOffset(params.offset);
    const query = {
      brand_id: params.brandId,
      days_back: params.daysBack,
      limit: params.limit,
      offset: params.offset,
    };
    return this.#citations('feed', (s) => s.citationFeedResponseSchema, query, opts);
  }

  #citationFilters(params: CitationFilterParams): Record<string, QueryValue> {
    assertBrandId(params.brandId);
    assertIntInRange('limit', params.limit, ...CITATIONS_LIMIT);
    assertOffset(params.offset);
    assertOptionalNonEmpty('domain', params.domain);
    assertOptionalNonEmpty('promptText', params.promptText);
    params.tagIds?.forEach((id, i) => {
      assertUuid(`tagIds[${i}]`, id, 'a tag id');
    });
    return {
      brand_id: params.brandId,
      limit: params.limit,
      offset: params.offset,
      domain: params.domain?.trim(),
      tag_ids: params.tagIds && params.tagIds.length > 0 ? params.tagIds.join(',') : undefined,
      prompt_text: params.promptText,
    };
  }

  #citations<S extends z.ZodMiniType>(
    view: CitationView,
    schema: PickSchema<S>,
    query: Record<string, QueryValue>,
    opts: CallOptions | undefined,
  ): Promise<z.output<S>> {
    return this.#get('getCitations', schema, { ...query, view }, opts);
  }

  // ---- Crawler analytics (docs/api.md §4.9, §4.10; parameters from docs/api.md §10)

  async getCrawlerOverview(params: CrawlerOverviewParams, opts?: CallOptions): Promise<CrawlerOverview> {
    const query = this.#dated(params);
    assertOneOf('compareTo', params.compareTo, ['none', 'previous_period'] as const);
    return this.#get(
      'getCrawlerOverview',
      (s) => s.crawlerOverviewSchema,
      { ...query, compare_to: params.compareTo },
      opts,
    );
  }

  async getCrawlerLive(params: CrawlerLiveParams, opts?: CallOptions): Promise<LoosePayload> {
    const query = this.#dated(params);
    assertOneOf('view', params.view, ['activity', 'pages', 'sessions'] as const);
    if (params.httpStatus !== undefined) assertIntInRange('httpStatus', params.httpStatus, 100, 599);
    return this.#getLoose(
      'getCrawlerLive',
      {
        ...query,
        ...this.#cursor(params),
        view: params.view,
        intent: params.intent,
        platform: params.platform,
        http_status: params.httpStatus,
        search: params.search,
      },
      opts,
    );
  }

  async getCrawlerPages(params: CrawlerPagesParams, opts?: CallOptions): Promise<LoosePayload> {
    const query = this.#dated(params);
    assertOneOf('lens', params.lens, ['pages', 'paths', 'bots'] as const);
    assertOneOf('status', params.status, ['all', ...pageStatuses] as const);
    return this.#getLoose(
      'getCrawlerPages',
      {
        ...query,
        ...this.#cursor(params),
        lens: params.lens,
        status: params.status,
        intent: params.intent,
        platform: params.platform,
        search: params.search,
      },
      opts,
    );
  }

  async getCrawlerPageDetails(params: CrawlerDrawerParams, opts?: CallOptions): Promise<LoosePayload> {
    return this.#getLoose('getCrawlerPageDetails', this.#drawer(params), opts);
  }

  async getCrawlerPathDetails(params: CrawlerDrawerParams, opts?: CallOptions): Promise<LoosePayload> {
    return this.#getLoose('getCrawlerPathDetails', this.#drawer(params), opts);
  }

  async getCrawlerBotDetails(params: CrawlerDrawerParams, opts?: CallOptions): Promise<LoosePayload> {
    return this.#getLoose('getCrawlerBotDetails', this.#drawer(params), opts);
  }

  async getCrawlerAccess(params: BrandParams & DateRangeParams, opts?: CallOptions): Promise<LoosePayload> {
    return this.#getLoose('getCrawlerAccess', this.#dated(params), opts);
  }

  async previewAccessFix(params: PreviewFixParams, opts?: CallOptions): Promise<LoosePayload> {
    assertBrandId(params.brandId);
    assertNonEmpty('findingId', params.findingId);
    return this.#write(
      'previewAccessFix',
      (s) => s.loosePayloadSchema,
      { brand_id: params.brandId, finding_id: params.findingId },
      opts,
    );
  }

  async verificationPing(params: BrandParams, opts?: CallOptions): Promise<LoosePayload> {
    assertBrandId(params.brandId);
    return this.#write('verificationPing', (s) => s.loosePayloadSchema, { brand_id: params.brandId }, opts);
  }

  async submitToSearch(params: SubmitToSearchParams, opts?: CallOptions): Promise<LoosePayload> {
    assertBrandId(params.brandId);
    assertList('urls', params.urls, 1);
    params.urls.forEach((u, i) => {
      assertHttpUrl(`urls[${i}]`, u);
    });
    // docs/api.md §10: `urls` is comma-separated, so a comma inside a URL is percent-encoded
    // (equivalent for any URL parser) to keep it from splitting the list.
    const urls = params.urls.map((u) => u.trim().replaceAll(',', '%2C')).join(',');
    return this.#write(
      'submitToSearch',
      (s) => s.loosePayloadSchema,
      { brand_id: params.brandId, urls },
      opts,
    );
  }

  async getSubmitToSearchStatus(params: BrandParams, opts?: CallOptions): Promise<LoosePayload> {
    assertBrandId(params.brandId);
    return this.#getLoose('getSubmitToSearchStatus', { brand_id: params.brandId }, opts);
  }

  // ---- Hosted AI Pages (docs/api.md §4.11)

  async getAiPages(params: BrandParams, opts?: CallOptions): Promise<AiPagesRecord> {
    assertBrandId(params.brandId);
    const query = { brand_id: params.brandId };
    try {
      return await this.#get('getAiPages', (s) => s.aiPagesRecordSchema, query, opts);
    } catch (err) {
      // docs/api.md §9: /prism is the legacy alias and "still works"; a deployment without
      // /ai-pages answers 404 there. Any other failure (403 entitlement, 5xx) is final.
      if (!(err instanceof NotFoundError)) throw err;
      return this.#get('getPrism', (s) => s.aiPagesRecordSchema, query, opts);
    }
  }

  // ---- Shared plumbing

  #dated(params: BrandParams & DateRangeParams): Record<string, QueryValue> {
    assertBrandId(params.brandId);
    assertDateRange(params);
    return {
      brand_id: params.brandId,
      range_preset: params.rangePreset,
      start_date: params.startDate,
      end_date: params.endDate,
    };
  }

  #cursor(params: { cursor?: string; limit?: number }): Record<string, QueryValue> {
    assertOptionalNonEmpty('cursor', params.cursor);
    assertIntInRange('limit', params.limit, ...CRAWLER_LIMIT);
    return { cursor: params.cursor, limit: params.limit };
  }

  #drawer(params: CrawlerDrawerParams): Record<string, QueryValue> {
    const query = this.#dated(params);
    assertNonEmpty('entityId', params.entityId);
    assertOptionalNonEmpty('kind', params.kind);
    return { ...query, kind: params.kind, entity_id: params.entityId };
  }

  async #get<S extends z.ZodMiniType>(
    key: EndpointKey,
    schema: PickSchema<S>,
    query: Record<string, QueryValue>,
    opts: CallOptions | undefined,
  ): Promise<z.output<S>> {
    const raw = await this.#send(key, { ...callOptions(opts), query });
    return this.#parse(key, schema, raw);
  }

  #getLoose(
    key: EndpointKey,
    query: Record<string, QueryValue>,
    opts: CallOptions | undefined,
  ): Promise<LoosePayload> {
    return this.#get(key, (s) => s.loosePayloadSchema, query, opts);
  }

  async #write<S extends z.ZodMiniType>(
    key: EndpointKey,
    schema: PickSchema<S>,
    body: Record<string, unknown>,
    opts: CallOptions | undefined,
  ): Promise<z.output<S>> {
    const raw = await this.#send(key, { ...callOptions(opts), body });
    return this.#parse(key, schema, raw);
  }

  /** `raw` typed by the schema `pick` chooses (loaded with the first response, see responseSchemas). */
  async #parse<S extends z.ZodMiniType>(
    key: EndpointKey,
    pick: PickSchema<S>,
    raw: unknown,
  ): Promise<z.output<S>> {
    return parseResponse(pick(await responseSchemas()), raw, endpointLabel(key));
  }

  #send(key: EndpointKey, req: SendRequest): Promise<unknown> {
    return this.#transport.send(key, req);
  }
}

function callOptions(opts: CallOptions | undefined): Pick<SendRequest, 'lane' | 'signal' | 'priority'> {
  return { lane: opts?.lane, signal: opts?.signal, priority: opts?.priority };
}

function endpointLabel(key: EndpointKey): string {
  return `${ENDPOINTS[key].method} ${ENDPOINTS[key].path}`;
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
