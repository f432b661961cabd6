/**
 * What pg-boss reports reaches our logs without the database password: as written in the
 * URL, percent-decoded, short or long, inside the whole URL, in an Error or in the plain
 * object pg-boss spreads an error into.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { connectionSecretScrubber, scrubbedError } from '../../src/jobs/connection-secret-scrubber.js';
import { jobEngineErrorLogger } from '../../src/jobs/pg-boss-ticks.js';
import { captureLogger, type LogLine } from './job-fixture.js';

describe('connection secrets in job engine reports', () => {
  it('cuts the password as written and decoded, and the whole URL', () => {
    const url = 'postgres://bot:s%40fe-Pass9@db.example.com:5432/visibility';
    const scrub = connectionSecretScrubber(url);
    expect(scrub(`could not connect to ${url}`)).toBe('could not connect to [redacted]');
    expect(scrub('auth failed with s@fe-Pass9 and s%40fe-Pass9')).toBe(
      'auth failed with [redacted] and [redacted]',
    );
    expect(scrub('queue visibility-poll-tick is fine')).toBe('queue visibility-poll-tick is fine');
  });

  it('cuts a password too short for the logger’s own scrubbing', () => {
    const scrub = connectionSecretScrubber('postgres://bot:Zq9@db/visibility');
    expect(scrub('login Zq9 refused')).toBe('login [redacted] refused');
  });

  it('leaves text alone for a URL without a password, and takes key=value strings whole', () => {
    expect(connectionSecretScrubber('postgres://db/visibility')('job engine ok')).toBe('job engine ok');
    const kv = 'host=db password=Zq9-long-secret';
    expect(connectionSecretScrubber(kv)(`bad ${kv}`)).toBe('bad [redacted]');
  });

  it('rebuilds errors and pg-boss’s plain error objects scrubbed, keeping the code', () => {
    const url = 'postgres://bot:hunter2-secret@db/visibility';
    const scrub = connectionSecretScrubber(url);
    const raw = Object.assign(new Error(`connect to ${url} failed`), { code: 'ECONNREFUSED', url });
    const fromError = scrubbedError(raw, scrub);
    expect(fromError.code).toBe('ECONNREFUSED');
    expect(inspect(fromError)).not.toContain('hunter2');
    const spread = { ...raw, message: raw.message, stack: raw.stack, queue: 'visibility-poll-tick' };
    const fromObject = scrubbedError(spread, scrub);
    expect(fromObject.message).toBe('connect to [redacted] failed');
    expect(inspect(fromObject)).not.toContain('hunter2');
    expect(scrubbedError('hunter2-secret leaked', scrub).message).toBe('[redacted] leaked');
  });

  it('logs an unreachable database at debug (its outage is logged once elsewhere), anything else as an error', () => {
    const url = 'postgres://bot:hunter2-secret@db/visibility';
    const logs: LogLine[] = [];
    const log = jobEngineErrorLogger(captureLogger(logs), connectionSecretScrubber(url));
    log(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' }));
    log(new Error(`relation "job" does not exist (${url})`));
    expect(logs.map((l) => [l.level, l.msg])).toEqual([
      [20, 'job engine: the database cannot be used'],
      [50, 'job engine error'],
    ]);
    expect(JSON.stringify(logs)).not.toContain('hunter2');
  });
});
