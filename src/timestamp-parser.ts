/**
 * `Date.parse` for a list that repeats a few timestamps many times over: a citation feed
 * carries one timestamp per snapshot, on hundreds of events, each as its own string. Each
 * distinct text is parsed once and found again by comparing it with the few seen so far
 * (texts of one length that differ within their first ten characters), not by hashing:
 * hashing every event's timestamp afresh cost more than the lookups it saved, twice per
 * feed (bench/alerts.ts: 500,000 events). Past FEW distinct texts, the others go in a Map.
 */
const FEW = 16;

/** A parser that remembers what it parsed; NaN for text that is not a time, as Date.parse. */
export function timestampParser(): (text: string) => number {
  const texts: string[] = [];
  const times: number[] = [];
  const more = new Map<string, number>();
  return (text) => {
    for (let i = 0; i < texts.length; i++) if (texts[i] === text) return times[i]!;
    let t = more.get(text);
    if (t !== undefined) return t;
    t = Date.parse(text);
    if (texts.length < FEW) {
      texts.push(text);
      times.push(t);
    } else more.set(text, t);
    return t;
  };
}
