/**
 * The API as one request sees it: every call gets `defaults` for the CallOptions it leaves
 * out (an option given as undefined counts as left out). The Slack layer wraps the shared
 * client per command with `{ lane: 'interactive', priority: arrivalMs }`, so each call the
 * command makes, however deep, keeps the command's place in the limiter's line.
 *
 * Spelled out rather than a Proxy: a method added to VisibilityApi fails to compile here
 * until it is wrapped, instead of being passed through without its defaults.
 */
import type { CallOptions, VisibilityApi } from './visibility-api.js';

export function withCallDefaults(api: VisibilityApi, defaults: CallOptions): VisibilityApi {
  const o = (opts: CallOptions | undefined): CallOptions => ({
    lane: opts?.lane ?? defaults.lane,
    signal: opts?.signal ?? defaults.signal,
    priority: opts?.priority ?? defaults.priority,
  });
  return {
    getContentIdeas: (p, opts) => api.getContentIdeas(p, o(opts)),
    refreshContentIdeas: (p, opts) => api.refreshContentIdeas(p, o(opts)),
    getBrands: (p, opts) => api.getBrands(p, o(opts)),
    addMarket: (p, opts) => api.addMarket(p, o(opts)),
    removeMarket: (p, opts) => api.removeMarket(p, o(opts)),
    setLocation: (p, opts) => api.setLocation(p, o(opts)),
    setAliases: (p, opts) => api.setAliases(p, o(opts)),

    getCitationList: (p, opts) => api.getCitationList(p, o(opts)),
    getCitationHistory: (p, opts) => api.getCitationHistory(p, o(opts)),
    getCitationQueries: (p, opts) => api.getCitationQueries(p, o(opts)),
    getCitationSources: (p, opts) => api.getCitationSources(p, o(opts)),
    getCitationFeed: (p, opts) => api.getCitationFeed(p, o(opts)),
    getCitationHeatmap: (p, opts) => api.getCitationHeatmap(p, o(opts)),

    getCrawlerOverview: (p, opts) => api.getCrawlerOverview(p, o(opts)),
    getCrawlerLive: (p, opts) => api.getCrawlerLive(p, o(opts)),
    getCrawlerPages: (p, opts) => api.getCrawlerPages(p, o(opts)),
    getCrawlerPageDetails: (p, opts) => api.getCrawlerPageDetails(p, o(opts)),
    getCrawlerPathDetails: (p, opts) => api.getCrawlerPathDetails(p, o(opts)),
    getCrawlerBotDetails: (p, opts) => api.getCrawlerBotDetails(p, o(opts)),
    getCrawlerAccess: (p, opts) => api.getCrawlerAccess(p, o(opts)),
    previewAccessFix: (p, opts) => api.previewAccessFix(p, o(opts)),
    verificationPing: (p, opts) => api.verificationPing(p, o(opts)),
    submitToSearch: (p, opts) => api.submitToSearch(p, o(opts)),
    getSubmitToSearchStatus: (p, opts) => api.getSubmitToSearchStatus(p, o(opts)),

    getAiPages: (p, opts) => api.getAiPages(p, o(opts)),

    limiterState: () => api.limiterState(),
  };
}
