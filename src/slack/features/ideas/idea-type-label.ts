import { humanizeCode } from '../../../messages/vocabulary.js';
import { ownLookup } from '../../views/own-lookup.js';

/** API.md §2 idea types in words a marketer uses; an unknown future type is humanised, not hidden. */
const LABELS: Readonly<Record<string, string>> = {
  prompt_gap: 'Prompt gap',
  citation_gap: 'Citation gap',
  position_weak: 'Weak position',
  rising: 'Rising topic',
  campaign: 'Campaign',
};

export function ideaTypeLabel(type: string): string {
  const known = ownLookup(LABELS, type);
  if (known) return known;
  return type.replace(/[_-]+/g, '').trim() === '' ? 'Idea' : humanizeCode(type);
}
