/**
 * `z.looseObject` for the arrays the jobs validate on every run, parsed by zod's compiled
 * object parser. zod/mini's objects walk their shape key by key on every parse; zod's
 * compiled parser (the one its full build uses for every object) generates one function
 * per shape on first use and runs that. On a citation feed's hundreds of events that was
 * two thirds of the validation time (bench/alerts.ts).
 *
 * The same field schemas, so the same values pass, the same issues (code and path) are
 * raised for what does not, and unknown keys are kept, as with `z.looseObject`. zod
 * falls back to walking the shape itself where code cannot be generated.
 */
import * as z from 'zod/mini';
import { type $loose, type $ZodObject, $ZodObjectJIT, type $ZodShape } from 'zod/v4/core';

export function compiledLooseObject<T extends $ZodShape>(shape: T): $ZodObject<T, $loose> {
  return new $ZodObjectJIT({ type: 'object', shape, catchall: z.unknown() }) as $ZodObject<T, $loose>;
}
