/**
 * `markets Acme Analytics add DE`, `markets "Acme Analytics" add DE` and, in a channel with
 * a default brand, `markets add DE`: the brand is whatever comes before the first verb
 * (quoted or not), the rest are the verb's arguments.
 */
interface BrandAndVerb {
  /** undefined: use the channel's default brand */
  brandToken: string | undefined;
  verb: string | undefined;
  rest: string[];
}

export function brandAndVerb(positional: readonly string[], verbs: ReadonlySet<string>): BrandAndVerb {
  const at = positional.findIndex((p) => verbs.has(p.toLowerCase()));
  if (at === -1) {
    return {
      brandToken: positional.length > 0 ? positional.join(' ') : undefined,
      verb: undefined,
      rest: [],
    };
  }
  return {
    brandToken: at > 0 ? positional.slice(0, at).join(' ') : undefined,
    verb: positional[at]!.toLowerCase(),
    rest: positional.slice(at + 1),
  };
}
