import { describe, expect, it } from 'vitest';
import { loadRunJobs } from '../../../src/dev/demo/load-run-jobs.js';

describe('loadRunJobs', () => {
  it('reports a missing module as not built, without a reason', async () => {
    expect(await loadRunJobs('../../jobs/no-such-run-jobs.js')).toEqual({ found: false, reason: undefined });
  });

  it('resolves relative to src/demo and says when the module has no runJobs', async () => {
    expect(await loadRunJobs('../../config.js')).toEqual({
      found: false,
      reason: '../../config.js exports no runJobs function',
    });
  });
});
