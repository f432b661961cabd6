/**
 * The service's refusals as a marketer reads them, through the real app, the local Slack
 * and the simulator (its own answers, and error bodies injected in each of the service's
 * shapes): no parameter names, endpoint paths or response field paths, and no "Not found:"
 * in front of a sentence that already says what is missing.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../helpers/manual-clock.js';
import { useReadHarness, visibleText } from './read-commands-harness.js';

const simClock = manualClock(Date.now());
const h = useReadHarness({
  simulator: { generationMs: 600, clock: simClock },
  refreshTiming: { pollIntervalMs: 25, timeoutMs: 10_000 },
});

/** Words that belong to the API's documentation, not to a Slack reply. */
function expectNoDeveloperText(text: string): void {
  expect(text).not.toMatch(/\(parameter |\bparam\b|\/get-[a-z-]+|\/crawler\/|\b(GET|POST|PUT|DELETE) \//);
  expect(text).not.toMatch(/\bmeta\.|_id\b|days_back|tag_ids|generation_status/);
}

describe('the service’s own answers', () => {
  it('a market that exists: the sentence, without "(parameter location)"', async () => {
    const { reply } = await h.command('markets "Acme Analytics" add DE');
    expect(h.requestsTo('/get-brands/markets', 'POST').map((r) => r.status)).toEqual([409]);
    expect(reply.text).toContain('Market DE already exists.');
    expectNoDeveloperText(visibleText(reply));
  });

  it('a finding that does not exist: said once, in words, with where to find the real ones', async () => {
    const { reply } = await h.command('crawler "Acme Analytics" preview-fix nope');
    expect(h.requestsTo('/crawler/access/preview-fix').map((r) => r.status)).toEqual([404]);
    expect(reply.text).toContain(
      "There is no access finding “nope” for this brand; the crawler's access view lists the current ones.",
    );
    expect(reply.text).not.toContain('Not found');
    expectNoDeveloperText(visibleText(reply));
  });

  it('an ideas refresh: the service’s note without the field and endpoint it names', async () => {
    const { reply } = await h.command('ideas "Acme Analytics" refresh');
    expect(h.requestsTo('/get-content-ideas', 'POST').map((r) => r.status)).toEqual([200]);
    const text = visibleText(reply);
    expect(text).toContain('The service says: Generating content ideas for Acme Analytics._');
    expectNoDeveloperText(text);
    simClock.advance(600);
  });
});

describe('error bodies the simulator is told to send', () => {
  it('{error, errors} with a parameter: the parameter in words', async () => {
    h.sim.control.injectFault({
      kind: 'status',
      status: 400,
      path: '/get-citations',
      body: {
        error: "Invalid parameter 'tag_ids': must be comma-separated tag UUIDs",
        errors: [{ param: 'tag_ids', message: 'must be comma-separated tag UUIDs' }],
      },
    });
    const { reply } = await h.command('citations "Acme Analytics"');
    expect(h.requestsTo('/get-citations').map((r) => r.status)).toEqual([400]);
    expect(reply.text).toContain('The service refused that: The tags must be comma-separated tag UUIDs.');
    expectNoDeveloperText(visibleText(reply));
  });

  it('{type, code, message, param}: the message, without the parameter note', async () => {
    h.sim.control.injectFault({
      kind: 'status',
      status: 409,
      path: '/get-brands/aliases',
      body: {
        type: 'invalid_request_error',
        code: 'alias_taken',
        message: 'Alias "Acme" is already used by another brand',
        param: 'aliases',
      },
    });
    const { reply } = await h.command('aliases "Acme Analytics" set Acme');
    expect(h.requestsTo('/get-brands/aliases', 'PUT').map((r) => r.status)).toEqual([409]);
    expect(reply.text).toContain('Alias "Acme" is already used by another brand.');
    expect(reply.text).not.toContain('aliases)');
    expectNoDeveloperText(visibleText(reply));
  });

  it('a 404 is said once, in words, whatever the body', async () => {
    const bodies: [unknown, string][] = [
      [{}, 'The service has nothing under that name or id.'],
      [
        { detail: { code: 'x', message: 'See meta.x on GET /crawler/access.' } },
        'The service has nothing under that name or id.',
      ],
      [{ error: 'Finding not found', errors: [{ message: 'Finding not found' }] }, 'Finding not found.'],
      [
        {
          type: 'not_found',
          code: 'finding_not_found',
          message: 'finding_id not found',
          param: 'finding_id',
        },
        'The finding was not found.',
      ],
    ];
    for (const [body, said] of bodies) {
      h.sim.control.injectFault({ kind: 'status', status: 404, path: '/crawler/access/preview-fix', body });
      const { reply } = await h.command('crawler "Acme Analytics" preview-fix nope');
      const shown = visibleText(reply);
      expect(reply.text, JSON.stringify(body)).toBe(said);
      // Once in the text and once in the blocks: never the sentence twice in one message.
      expect(shown.split(said).length - 1, shown).toBe(1);
      expectNoDeveloperText(shown);
    }
  });

  it('{detail: {code, message}} that only points at a field: our own words instead', async () => {
    h.sim.control.injectFault({
      kind: 'status',
      status: 404,
      path: '/crawler/access',
      body: { detail: { code: 'not_ready', message: 'See meta.snapshot_status on GET /crawler/access.' } },
    });
    const { reply } = await h.command('crawler "Acme Analytics" access');
    expect(h.requestsTo('/crawler/access').map((r) => r.status)).toEqual([404]);
    expect(reply.text).toContain('The service has nothing under that name or id.');
    expectNoDeveloperText(visibleText(reply));
  });
});
