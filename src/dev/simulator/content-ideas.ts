/**
 * Content ideas (docs/api.md §2, §4.1): generated per brand and per generation run, so a
 * refresh yields a new, still deterministic, set. Ranked by opportunity score.
 */
import type { BrandProfile } from './brand-profiles.js';
import { createRandom, type Random, uuidFrom } from './random.js';

export type IdeaType = 'prompt_gap' | 'citation_gap' | 'position_weak' | 'rising' | 'campaign';
export type IdeaStatus = 'active' | 'dismissed' | 'implemented';

export interface IdeaRecord {
  id: string;
  type: IdeaType;
  query: string;
  insight: string | null;
  opportunity_score: number;
  status: IdeaStatus;
  recommended_template: string | null;
  competitors_appearing: string[];
  ai_models: string[];
  your_position: number | null;
  created_at: string;
}

const AI_MODELS = ['chatgpt', 'perplexity', 'gemini', 'claude', 'google-ai-overviews', 'copilot'] as const;
const IDEAS_PER_RUN = 36;
const TYPES: readonly IdeaType[] = ['prompt_gap', 'citation_gap', 'position_weak', 'rising', 'campaign'];
/** Score ranges by type: gaps where competitors already win are worth most. */
const SCORE_RANGE: Record<IdeaType, [number, number]> = {
  prompt_gap: [55, 98],
  citation_gap: [40, 90],
  position_weak: [30, 80],
  rising: [35, 92],
  campaign: [20, 75],
};
const TEMPLATES: Record<IdeaType, readonly (string | null)[]> = {
  prompt_gap: ['comparison_page', 'alternatives_page', 'listicle'],
  citation_gap: ['how_to_guide', 'original_research', 'faq_page'],
  position_weak: ['comparison_page', 'landing_page', null],
  rising: ['how_to_guide', 'news_commentary', 'faq_page', null],
  campaign: ['content_series', 'pillar_page', null],
};

function queriesFor(profile: BrandProfile): string[] {
  const fromTopics = profile.topics.flatMap((topic) => [
    `${topic} explained`,
    `common mistakes with ${topic}`,
    ...profile.audiences.slice(0, 2).map((a) => `${topic} for ${a}`),
  ]);
  const fromCompetitors = profile.competitors.flatMap((c) => [`${c} pricing`, `is ${c} worth it`]);
  return [...profile.prompts.map((p) => p.text), ...fromTopics, ...fromCompetitors];
}

function insightFor(type: IdeaType, query: string, competitors: string[], rng: Random): string | null {
  const [first, second] = competitors;
  const who = second ? `${first} and ${second}` : (first ?? 'competitors');
  switch (type) {
    case 'prompt_gap':
      return `${who} appear in AI answers for "${query}" but your brand does not.`;
    case 'citation_gap':
      return `Answers to "${query}" cite ${rng.int(6, 24)} sources; none of them is yours yet.`;
    case 'position_weak':
      return `You are mentioned for "${query}" but after ${who}; a focused page could move you up.`;
    case 'rising':
      return `Mentions of "${query}" in AI answers grew ${rng.int(18, 140)}% over the last 30 days.`;
    case 'campaign':
      return rng.chance(0.15)
        ? null
        : `A ${rng.int(3, 6)}-piece series around "${query}" would cover ${rng.int(4, 11)} related prompts.`;
  }
}

export function generateIdeas(
  profile: BrandProfile,
  generation: number,
  generatedAtMs: number,
): IdeaRecord[] {
  const rng = createRandom(`ideas:${profile.id}:${generation}`);
  const queries = rng.sample(queriesFor(profile), IDEAS_PER_RUN);
  const ideas = queries.map((query, i): IdeaRecord => {
    const type = TYPES[i % TYPES.length]!;
    const [lo, hi] = SCORE_RANGE[type];
    const competitors = type === 'campaign' ? [] : rng.sample(profile.competitors, rng.int(1, 3)).sort();
    const roll = rng.next();
    return {
      id: uuidFrom(`idea:${profile.id}:${generation}:${i}`),
      type,
      query,
      insight: insightFor(type, query, competitors, rng),
      opportunity_score: rng.int(lo, hi),
      status: roll < 0.7 ? 'active' : roll < 0.85 ? 'dismissed' : 'implemented',
      recommended_template: rng.pick(TEMPLATES[type]),
      competitors_appearing: competitors,
      ai_models: rng.sample(AI_MODELS, rng.int(1, 4)).sort(),
      your_position:
        type === 'position_weak'
          ? rng.int(4, 12)
          : type === 'citation_gap' && rng.chance(0.4)
            ? rng.int(2, 9)
            : null,
      created_at: new Date(generatedAtMs - rng.int(0, 72) * 3_600_000).toISOString(),
    };
  });
  return ideas.sort((a, b) => b.opportunity_score - a.opportunity_score || (a.id < b.id ? -1 : 1));
}
