import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED } from '../src/logger.js';
import { DuplicateKeyError, parseStrictJson } from './helpers/strict-json.js';

function capture(secrets: readonly string[] = []) {
  const lines: string[] = [];
  const logger = createLogger({ secrets, destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines };
}

describe('log lines', () => {
  it('carry each key once: the call over its bindings, an inner child over an outer one', () => {
    const { logger, lines } = capture();
    logger
      .child({ component: 'jobs', job: 'citations' })
      .child({ job: 'citations', brandId: 'b1' })
      .info({ job: 'crawler', nested: { a: 1 } }, 'job ok');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('}\n')).toBe(true);
    const line = parseStrictJson(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      component: 'jobs',
      job: 'crawler',
      brandId: 'b1',
      nested: { a: 1 },
      msg: 'job ok',
    });
    // Where the key was first written: with the bindings, before the call's own fields.
    expect(Object.keys(line).indexOf('job')).toBeLessThan(Object.keys(line).indexOf('nested'));
  });

  it('redact the secret fields by name: on the line, one level down, and in headers one further', () => {
    const { logger, lines } = capture();
    logger.child({ token: 'bound-token-value' }).warn(
      {
        apiKey: 'field-api-key',
        req: { authorization: 'Bearer abc', url: '/x', headers: { authorization: 'h', accept: 'json' } },
        config: {
          databaseUrl: 'postgres://u:p@h/db',
          signingSecret: 's',
          appToken: 'a',
          connectionString: 'c',
        },
        list: [{ token: 'in an array: not a field of an object one level down' }],
        deep: { a: { token: 'two levels down: not named' } },
      },
      'request failed',
    );
    const line = parseStrictJson(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      token: REDACTED,
      apiKey: REDACTED,
      req: { authorization: REDACTED, url: '/x', headers: { authorization: REDACTED, accept: 'json' } },
      config: {
        databaseUrl: REDACTED,
        signingSecret: REDACTED,
        appToken: REDACTED,
        connectionString: REDACTED,
      },
      deep: { a: { token: 'two levels down: not named' } },
      msg: 'request failed',
    });
    expect(line['list']).toEqual([{ token: 'in an array: not a field of an object one level down' }]);
  });

  it('still lose every secret, after the keys are made one', () => {
    const secret = 'sk_live_abcdefghijklmnopqrstuvwxyz012345';
    const { logger, lines } = capture([secret]);
    logger.child({ url: `https://x.test/?key=${secret}` }).warn({ url: secret }, `failed with ${secret}`);
    expect(lines[0]).not.toContain(secret);
    expect(parseStrictJson(lines[0]!)).toMatchObject({ url: REDACTED, msg: `failed with ${REDACTED}` });
  });
});

describe('the strict parser the log tests use', () => {
  it('refuses a repeated key at any depth and names it', () => {
    expect(() => parseStrictJson('{"job":"a","job":"a"}')).toThrow(DuplicateKeyError);
    expect(() => parseStrictJson('{"a":{"b":[{"c":1,"c":2}]}}')).toThrow('"c" appears twice in a.b[0]');
    expect(parseStrictJson('{"a":"x\\"y","b":[1,-2.5e3,true,null,{}]}')).toEqual({
      a: 'x"y',
      b: [1, -2500, true, null, {}],
    });
  });
});
