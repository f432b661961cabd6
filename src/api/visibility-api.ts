/**
 * The typed surface of the Brand Visibility API (docs/api.md §4.1–4.11): one method per
 * endpoint. `ApiClient` implements it over HTTP; the Slack layer and the jobs depend on
 * this interface only. Parameters use camelCase; the client maps them to the wire names.
 */
import type { Lane, LimiterState } from './limiter/types.js';
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
  ContentIdeasResponse,
  CrawlerOverview,
  IdeaStatus,
  LocationResponse,
  LoosePayload,
  Market,
  RangePreset,
  RefreshIdeasResult,
  RemoveMarketResponse,
} from './schemas/index.js';

export interface CallOptions {
  /** `interactive` (a person waits in Slack) goes ahead of `background` (jobs). Default interactive. */
  lane?: Lane;
  signal?: AbortSignal;
  /**
   * Epoch ms the person's request arrived (lower = earlier): the interactive lane grants
   * in this order, so every call of one command keeps the command's place. Default: the
   * time the call is queued.
   */
  priority?: number;
}

export interface BrandParams {
  brandId: string;
}

export interface DateRangeParams {
  rangePreset?: RangePreset;
  /** YYYY-MM-DD, required with rangePreset 'custom' */
  startDate?: string;
  /** YYYY-MM-DD, required with rangePreset 'custom' */
  endDate?: string;
}

export interface ContentIdeasParams extends BrandParams {
  /** 1–200, default 50 */
  limit?: number;
  offset?: number;
  /** omitted = all statuses */
  status?: IdeaStatus;
}

export interface GetBrandsParams {
  brandId?: string;
  include?: ReadonlyArray<'markets' | 'aliases'>;
}

export interface AddMarketParams extends BrandParams {
  /** ISO-2 */
  location: string;
  marketName?: string;
}

export interface RemoveMarketParams extends BrandParams {
  marketId: string;
}

export interface SetLocationParams extends BrandParams {
  /** ISO-2, the alias UK or a full country name */
  country: string;
  region?: string;
  city?: string;
  providerCode?: number;
}

export interface SetAliasesParams extends BrandParams {
  aliases: readonly string[];
}

export interface CitationFilterParams extends BrandParams {
  /** 1–500, default 100 */
  limit?: number;
  offset?: number;
  /** partial match in the list view */
  domain?: string;
  tagIds?: readonly string[];
  promptText?: string;
}

export interface CitationHistoryParams extends BrandParams {
  /** 7–365, default 30 */
  days?: number;
}

export interface CitationSourcesParams extends BrandParams {
  /** exact domain; required */
  domain: string;
  limit?: number;
  offset?: number;
}

export interface CitationFeedParams extends BrandParams {
  /** 1–30, default 7 */
  daysBack?: number;
  limit?: number;
  offset?: number;
}

export interface CrawlerOverviewParams extends BrandParams, DateRangeParams {
  compareTo?: 'none' | 'previous_period';
}

interface CursorParams {
  cursor?: string;
  /** 1–100, default 25 */
  limit?: number;
}

export interface CrawlerLiveParams extends BrandParams, DateRangeParams, CursorParams {
  view?: 'activity' | 'pages' | 'sessions';
  intent?: string;
  platform?: string;
  httpStatus?: number;
  search?: string;
}

export interface CrawlerPagesParams extends BrandParams, DateRangeParams, CursorParams {
  lens?: 'pages' | 'paths' | 'bots';
  /** the page-status vocabulary or 'all' */
  status?: string;
  intent?: string;
  platform?: string;
  search?: string;
}

export interface CrawlerDrawerParams extends BrandParams, DateRangeParams {
  kind?: string;
  entityId: string;
}

export interface PreviewFixParams extends BrandParams {
  findingId: string;
}

export interface SubmitToSearchParams extends BrandParams {
  /** absolute URLs */
  urls: readonly string[];
}

export interface VisibilityApi {
  getContentIdeas(params: ContentIdeasParams, opts?: CallOptions): Promise<ContentIdeasResponse>;
  refreshContentIdeas(params: BrandParams, opts?: CallOptions): Promise<RefreshIdeasResult>;
  getBrands(params?: GetBrandsParams, opts?: CallOptions): Promise<BrandsResponse>;
  addMarket(params: AddMarketParams, opts?: CallOptions): Promise<Market>;
  removeMarket(params: RemoveMarketParams, opts?: CallOptions): Promise<RemoveMarketResponse>;
  setLocation(params: SetLocationParams, opts?: CallOptions): Promise<LocationResponse>;
  setAliases(params: SetAliasesParams, opts?: CallOptions): Promise<AliasesResponse>;

  getCitationList(params: CitationFilterParams, opts?: CallOptions): Promise<CitationListResponse>;
  getCitationHistory(params: CitationHistoryParams, opts?: CallOptions): Promise<CitationHistoryResponse>;
  getCitationQueries(params: CitationFilterParams, opts?: CallOptions): Promise<CitationQueriesResponse>;
  getCitationSources(params: CitationSourcesParams, opts?: CallOptions): Promise<CitationSourcesResponse>;
  getCitationFeed(params: CitationFeedParams, opts?: CallOptions): Promise<CitationFeedResponse>;
  getCitationHeatmap(params: CitationFilterParams, opts?: CallOptions): Promise<CitationHeatmapResponse>;

  getCrawlerOverview(params: CrawlerOverviewParams, opts?: CallOptions): Promise<CrawlerOverview>;
  getCrawlerLive(params: CrawlerLiveParams, opts?: CallOptions): Promise<LoosePayload>;
  getCrawlerPages(params: CrawlerPagesParams, opts?: CallOptions): Promise<LoosePayload>;
  getCrawlerPageDetails(params: CrawlerDrawerParams, opts?: CallOptions): Promise<LoosePayload>;
  getCrawlerPathDetails(params: CrawlerDrawerParams, opts?: CallOptions): Promise<LoosePayload>;
  getCrawlerBotDetails(params: CrawlerDrawerParams, opts?: CallOptions): Promise<LoosePayload>;
  getCrawlerAccess(params: BrandParams & DateRangeParams, opts?: CallOptions): Promise<LoosePayload>;
  previewAccessFix(params: PreviewFixParams, opts?: CallOptions): Promise<LoosePayload>;
  verificationPing(params: BrandParams, opts?: CallOptions): Promise<LoosePayload>;
  submitToSearch(params: SubmitToSearchParams, opts?: CallOptions): Promise<LoosePayload>;
  getSubmitToSearchStatus(params: BrandParams, opts?: CallOptions): Promise<LoosePayload>;

  /** GET /ai-pages, falling back to the legacy /prism only when /ai-pages is 404. */
  getAiPages(params: BrandParams, opts?: CallOptions): Promise<AiPagesRecord>;

  /** Rate limiter state for `status` commands, /metrics and logs. */
  limiterState(): LimiterState;
}
