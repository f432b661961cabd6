/**
 * JSON.parse that refuses what JSON.parse lets through: an object naming the same key
 * twice (JSON.parse keeps the last one silently; log pipelines reject such lines or
 * collapse them). The error names the key and the path of the object that repeats it.
 */
export class DuplicateKeyError extends Error {
  constructor(
    readonly key: string,
    readonly path: string,
  ) {
    super(`"${key}" appears twice in ${path || 'the top-level object'}`);
    this.name = 'DuplicateKeyError';
  }
}

export function parseStrictJson(text: string): unknown {
  let i = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at position ${i} of ${text.slice(0, 120)}`);
  };
  const space = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i += 1;
  };
  const string = (): string => {
    const start = i;
    i += 1;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail('unterminated string');
    i += 1;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): unknown => {
    space();
    const c = text[i];
    if (c === '{') return object(path);
    if (c === '[') return array(path);
    if (c === '"') return string();
    const literal = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (!literal) return fail('unexpected character');
    i += literal[0].length;
    return JSON.parse(literal[0]) as unknown;
  };
  const object = (path: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    i += 1;
    space();
    if (text[i] === '}') {
      i += 1;
      return out;
    }
    for (;;) {
      space();
      if (text[i] !== '"') fail('expected a key');
      const key = string();
      if (seen.has(key)) throw new DuplicateKeyError(key, path);
      seen.add(key);
      space();
      if (text[i] !== ':') fail('expected ":"');
      i += 1;
      out[key] = value(path ? `${path}.${key}` : key);
      space();
      if (text[i] === ',') i += 1;
      else if (text[i] === '}') {
        i += 1;
        return out;
      } else fail('expected "," or "}"');
    }
  };
  const array = (path: string): unknown[] => {
    const out: unknown[] = [];
    i += 1;
    space();
    if (text[i] === ']') {
      i += 1;
      return out;
    }
    for (;;) {
      out.push(value(`${path}[${out.length}]`));
      space();
      if (text[i] === ',') i += 1;
      else if (text[i] === ']') {
        i += 1;
        return out;
      } else fail('expected "," or "]"');
    }
  };
  const result = value('');
  space();
  if (i !== text.length) fail('trailing text');
  return result;
}
