/**
 * What one brand's error means for the whole run (classify-job-error.ts): the service, the
 * database and the brand are told apart even when their errors carry the same socket code.
 */
import { describe, expect, it } from 'vitest';
import { errorFromTransport } from '../../src/api/error-from-transport.js';
import { AbortedError, ServerError, UnauthorizedError } from '../../src/api/errors.js';
import { BudgetStoreError } from '../../src/api/limiter/budget-store.js';
import { classifyJobError } from '../../src/use-cases/classify-job-error.js';

const refused = (port: number) =>
  Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${port}`), { code: 'ECONNREFUSED' });

describe('what an error means for a job run', () => {
  it('reads a refused connection to the service as the service, not the database', () => {
    expect(classifyJobError(errorFromTransport(refused(443), 'GET /ai-pages', undefined))).toEqual({
      kind: 'api_unreachable',
    });
  });

  it("reads a refused connection to the database as the database, also under the rate budget's error", () => {
    expect(classifyJobError(refused(5432))).toEqual({ kind: 'database_unavailable' });
    const budget = new BudgetStoreError('the rate budget could not be read', refused(5432));
    expect(classifyJobError(budget)).toEqual({ kind: 'database_unavailable' });
  });

  it("keeps a service's answer the brand's trouble, whatever its cause carries", () => {
    const answered = new ServerError('The Brand Visibility API answered 503.', { cause: refused(5432) });
    expect(classifyJobError(answered)).toEqual({ kind: 'brand_failed' });
    expect(classifyJobError(new UnauthorizedError('The key was refused.'))).toEqual({ kind: 'key_rejected' });
    expect(classifyJobError(new AbortedError('cancelled'))).toEqual({ kind: 'aborted' });
  });
});
