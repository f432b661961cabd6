/**
 * AI Pages usage and status (docs/alert-semantics.md):
 * - `percentage_used` reaching each threshold alerts once per billing period; the period
 *   is named by `reset_date`, and a new period re-arms every level. A level, so it alerts
 *   on first sight.
 * - `enabled` turning false alerts once, and re-arms when it is true again.
 * - No entitlement (403) or not set up (`config` null) is noted once, not alerted daily.
 */
import type { AiPagesRecord } from '../api/schemas/ai-pages.js';
import { dayText } from '../figures/day-text.js';
import { figureName, figureWords } from '../figures/glossary.js';
import { countText, usagePercentText } from '../figures/number-text.js';
import { outlookSentence, type UsageOutlook } from './ai-pages-forecast.js';
import type { AlertSettings } from './alert-settings.js';
import type { Alert, AlertNote, BrandRef } from './types.js';

export interface AiPagesState {
  /** Normalised `reset_date` of the billing period `firedLevels` belong to. */
  period: string | null;
  firedLevels: number[];
  /** Last seen `config.enabled`; null before the first sight or while unavailable. */
  enabled: boolean | null;
  /** Counts `enabled` → false transitions; part of the alert key. */
  disabledEpisodes: number;
  /** The unavailability already noted; cleared when AI Pages answers again. */
  unavailable: 'no_entitlement' | 'not_set_up' | null;
  unavailableEpisodes: number;
  lastPercentage: number | null;
}

export const INITIAL_AI_PAGES_STATE: AiPagesState = {
  period: null,
  firedLevels: [],
  enabled: null,
  disabledEpisodes: 0,
  unavailable: null,
  unavailableEpisodes: 0,
  lastPercentage: null,
};

export type AiPagesInput = AiPagesRecord | { unavailable: 'no_entitlement' };

/** AiPagesRecord is a loose object, so `'unavailable' in x` alone does not narrow it. */
export function isAiPagesUnavailable(x: AiPagesInput): x is { unavailable: 'no_entitlement' } {
  return (x as { unavailable?: unknown }).unavailable === 'no_entitlement';
}

interface AiPagesDetection {
  alerts: Alert[];
  notes: AlertNote[];
  next: AiPagesState;
}

/** The same instant can come back as `…Z` or `…+00:00` or with milliseconds; one period, one name. */
function periodName(resetDate: string): string {
  const t = Date.parse(resetDate);
  return Number.isNaN(t) ? resetDate : new Date(t).toISOString();
}

const fmt = countText;

function note(brand: BrandRef, reason: 'no_entitlement' | 'not_set_up', episode: number): AlertNote {
  return {
    kind: 'ai_pages_unavailable',
    brandId: brand.id,
    brandName: brand.name,
    key: `ai_pages_unavailable:${brand.id}:${reason}:e${episode}`,
    reason,
    text:
      reason === 'no_entitlement'
        ? `AI Pages is not part of your plan, so there are no AI Pages usage alerts for ${brand.name}.`
        : `AI Pages is not set up for ${brand.name}; usage alerts start once it is.`,
  };
}

/** `enabled` true → false, as one alert; the episode count keeps a later switch-off its own key. */
function disabledAlert(
  state: AiPagesState,
  domain: string,
  brand: BrandRef,
  nowMs: number,
  episode: number,
): Alert {
  return {
    kind: 'ai_pages_disabled',
    brandId: brand.id,
    brandName: brand.name,
    key: `ai_pages_disabled:${brand.id}:${state.period ?? 'no-period'}:e${episode}`,
    title: 'AI Pages was switched off',
    whatChanged: `AI Pages for ${domain} is now disabled.`,
    before: 'enabled',
    after: 'disabled',
    whyItMatters:
      'AI crawlers now get the plain pages again, without the structured data, key facts and summaries that help models cite you.',
    whatToDo:
      'If nobody meant to switch it off, turn AI Pages back on in its settings and check the integration.',
    subject: domain,
    open: { view: 'aipages' },
    detectedAtMs: nowMs,
  };
}

type AiPagesUsage = NonNullable<AiPagesRecord['usage']>;

/** The alert for `level`, the highest threshold the usage newly crossed this billing period. */
function thresholdAlert(
  usage: AiPagesUsage,
  level: number,
  period: string,
  state: AiPagesState,
  brand: BrandRef,
  nowMs: number,
  outlook: UsageOutlook | null,
): Alert {
  const atLimit = usage.percentage_used >= 100;
  return {
    kind: 'ai_pages_threshold',
    brandId: brand.id,
    brandName: brand.name,
    key: `ai_pages_threshold:${brand.id}:${period}:${level}`,
    title: atLimit ? 'AI Pages monthly limit reached' : `${figureName('aiPagesUsage')} passed ${level} %`,
    whatChanged: `${figureName('aiPagesUsage')} is ${usagePercentText(usage.percentage_used)} of the monthly limit: ${fmt(usage.requests_this_month)} of ${fmt(usage.requests_limit)} ${figureWords('aiPagesRequests')} this billing period. The counter resets ${dayText(usage.reset_date)}.${outlook ? ` ${outlookSentence(outlook)}` : ''}`,
    before:
      state.lastPercentage !== null && period === state.period
        ? `${usagePercentText(state.lastPercentage)} used`
        : null,
    after: `${usagePercentText(usage.percentage_used)} used`,
    whyItMatters: atLimit
      ? 'Past the limit AI crawlers get the plain pages until the counter resets, so your optimised versions stop reaching AI models.'
      : 'When the limit is reached, AI crawlers get the plain pages until the counter resets.',
    whatToDo: atLimit
      ? 'Upgrade the plan or raise the limit now, or accept plain pages until the reset date.'
      : 'Check the usage trend; if it will run out before the reset date, raise the limit or narrow the crawlers AI Pages serves.',
    subject: `${level} % (${usagePercentText(usage.percentage_used)} used)`,
    open: { view: 'aipages' },
    detectedAtMs: nowMs,
  };
}

export function detectAiPages(
  prev: AiPagesState | null,
  input: AiPagesInput,
  settings: AlertSettings,
  brand: BrandRef,
  nowMs: number,
  /**
   * Where usage is heading at its pace (ai-pages-forecast.ts): every threshold alert says
   * it, or why it cannot be told yet. Null only without usage samples.
   */
  outlook: UsageOutlook | null = null,
): AiPagesDetection {
  const state = prev ?? INITIAL_AI_PAGES_STATE;
  const config = isAiPagesUnavailable(input) ? null : input.config;
  if (isAiPagesUnavailable(input) || config === null) {
    const reason = isAiPagesUnavailable(input) ? input.unavailable : 'not_set_up';
    if (state.unavailable === reason) return { alerts: [], notes: [], next: state };
    const episode = state.unavailableEpisodes + 1;
    return {
      alerts: [],
      notes: [note(brand, reason, episode)],
      // Levels and the enabled flag are kept: when AI Pages answers again in the same
      // billing period, levels already reported stay reported.
      next: { ...state, unavailable: reason, unavailableEpisodes: episode },
    };
  }
  const record: AiPagesRecord = input;

  const alerts: Alert[] = [];
  let next: AiPagesState = { ...state, unavailable: null };

  const enabled = config.enabled;
  // `enabled` is an event, not a level: "turns false" needs a previous true. A brand seen
  // disabled on its first run was switched off before anyone subscribed; that is not news.
  if (enabled === false && state.enabled === true) {
    const episode = state.disabledEpisodes + 1;
    next = { ...next, disabledEpisodes: episode };
    alerts.push(disabledAlert(state, config.domain, brand, nowMs, episode));
  }
  next = { ...next, enabled };

  const usage = record.usage;
  if (usage) {
    const period = periodName(usage.reset_date);
    const fired = period === state.period ? state.firedLevels : [];
    const crossed = settings.aiPagesThresholds.filter((level) => usage.percentage_used >= level);
    const fresh = crossed.filter((level) => !fired.includes(level));
    if (fresh.length > 0) {
      // Only the highest newly crossed level is alerted: jumping from 70 % to 100 % at once
      // is one piece of news ("the limit is reached"), and three messages saying 80, 90 and
      // 100 would bury it. The lower levels are marked fired too, so they never come later.
      alerts.push(thresholdAlert(usage, Math.max(...fresh), period, state, brand, nowMs, outlook));
    }
    next = {
      ...next,
      period,
      firedLevels: [...new Set([...fired, ...crossed])].sort((a, b) => a - b),
      lastPercentage: usage.percentage_used,
    };
  }
  return { alerts, notes: [], next };
}
