/**
 * A response that a schema would return unchanged, recognised without zod's copy of it.
 *
 * zod builds a new object for every object it parses, even a loose one that keeps every
 * key. A citation feed is hundreds of events, each copied field by field on every run
 * (bench/alerts.ts: 500,000 of them, most of the run's validation time and garbage). When
 * the JSON already has the shape the schema describes, that copy is equal to the JSON, so
 * parse-response.ts returns the JSON itself.
 *
 * The check is derived from the schema's own definition, node by node, so it cannot drift
 * from it:
 * - objects, arrays, records, nullable, optional and defaulted fields and plain strings,
 *   numbers, booleans and unknowns are checked here, with zod's own rules for each
 *   (a number is finite, an object is not an array, a default applies only to a missing
 *   value, which zod would fill in, so the check says no);
 * - any other node (a check such as a range, an enum, a union, a transform) asks zod
 *   itself and passes only when zod returns the very same value, which holds for
 *   primitives and never for objects.
 *
 * When it says yes, zod's parse would succeed with a value equal to the input; when it
 * says no, parse-response.ts runs zod, which names the first offending field.
 */
import { type $ZodType, safeParse } from 'zod/v4/core';

/** True only when `schema` would parse `value` into a value equal to it. */
export type UnchangedCheck = (value: unknown) => boolean;

/**
 * A node as the check reads it: which JavaScript type it wants, whether null and a missing
 * value pass, and for objects, arrays, records and nodes left to zod, the check to run.
 * One `passes` reads every rule, so checking a field is a switch, not a call through a
 * different closure per field (which cost as much as zod's copy).
 */
interface Rule {
  kind: Kind;
  nullOk: boolean;
  undefinedOk: boolean;
  check: UnchangedCheck | null;
}

type Kind = 'string' | 'number' | 'boolean' | 'any' | 'other';

function passes(r: Rule, v: unknown): boolean {
  if (v === undefined) return r.undefinedOk;
  if (v === null) return r.nullOk;
  switch (r.kind) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'any':
      return true;
    default:
      return r.check!(v);
  }
}

const rules = new WeakMap<$ZodType, Rule>();

function ruleOf(schema: $ZodType): Rule {
  let rule = rules.get(schema);
  if (!rule) {
    rule = compile(schema);
    rules.set(schema, rule);
  }
  return rule;
}

export function unchangedCheck(schema: $ZodType): UnchangedCheck {
  const rule = ruleOf(schema);
  return (v) => passes(rule, v);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const primitive = (kind: Kind): Rule => ({ kind, nullOk: false, undefinedOk: false, check: null });
const other = (check: UnchangedCheck): Rule => ({ kind: 'other', nullOk: false, undefinedOk: false, check });

/** zod's answer for a node this module does not model: yes only for the very same value. */
function askZod(schema: $ZodType): Rule {
  const check: UnchangedCheck = (v) => {
    const r = safeParse(schema, v);
    return r.success && Object.is(r.data, v);
  };
  return { kind: 'other', nullOk: check(null), undefinedOk: check(undefined), check };
}

function compile(schema: $ZodType): Rule {
  const def = schema._zod.def;
  if ((def.checks?.length ?? 0) > 0 || ('coerce' in def && def.coerce)) return askZod(schema);
  switch (def.type) {
    case 'string':
      return primitive('string');
    case 'number':
      return primitive('number');
    case 'boolean':
      return primitive('boolean');
    case 'unknown':
    case 'any':
      return { kind: 'any', nullOk: true, undefinedOk: true, check: null };
    case 'nullable':
      return { ...ruleOf(innerOf(def)), nullOk: true };
    case 'optional':
      return { ...ruleOf(innerOf(def)), undefinedOk: true };
    case 'default':
      // A missing value is one zod fills in: its copy would differ.
      return { ...ruleOf(innerOf(def)), undefinedOk: false };
    case 'array':
      return other(arrayCheck(ruleOf((def as unknown as { element: $ZodType }).element)));
    case 'object': {
      const check = objectCheck(def as unknown as ObjectDef);
      return check ? other(check) : askZod(schema);
    }
    case 'record': {
      const check = recordCheck(def as unknown as RecordDef);
      return check ? other(check) : askZod(schema);
    }
    default:
      return askZod(schema);
  }
}

const innerOf = (def: object) => (def as { innerType: $ZodType }).innerType;

function arrayCheck(element: Rule): UnchangedCheck {
  return (v) => {
    if (!Array.isArray(v)) return false;
    for (let i = 0; i < v.length; i++) if (!passes(element, v[i])) return false;
    return true;
  };
}

interface ObjectDef {
  shape: Record<string, $ZodType>;
  catchall?: $ZodType;
}

interface Field {
  key: string;
  rule: Rule;
  /** Named like something every object inherits (`constructor`): read only when its own. */
  inherited: boolean;
}

/**
 * An object of the shape: each field as its schema says (a missing one as undefined), and
 * keys outside the shape either kept as they are (a loose object) or absent (a strict one
 * refuses them; a stripping one would drop them, so its copy would differ). Null when the
 * catch-all is one this module does not model.
 */
function objectCheck(def: ObjectDef): UnchangedCheck | null {
  const loose = def.catchall?._zod.def.type === 'unknown';
  if (def.catchall && !loose && def.catchall._zod.def.type !== 'never') return null;
  const fields: Field[] = Object.entries(def.shape).map(([key, s]) => ({
    key,
    rule: ruleOf(s),
    inherited: key in Object.prototype,
  }));
  const known = new Set(fields.map((f) => f.key));
  return (v) => {
    if (!isPlainObject(v)) return false;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      if (!passes(f.rule, f.inherited && !Object.hasOwn(v, f.key) ? undefined : v[f.key])) return false;
    }
    return loose || Object.keys(v).every((k) => known.has(k));
  };
}

interface RecordDef {
  keyType: $ZodType;
  valueType: $ZodType;
}

/** A record with plain string keys: every own value as its schema says. */
function recordCheck(def: RecordDef): UnchangedCheck | null {
  const key = def.keyType._zod.def;
  if (key.type !== 'string' || (key.checks?.length ?? 0) > 0) return null;
  const value = ruleOf(def.valueType);
  return (v) => isPlainObject(v) && Object.values(v).every((x) => passes(value, x));
}
