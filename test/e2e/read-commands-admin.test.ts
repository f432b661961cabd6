/**
 * With SLACK_ADMIN_USERS set, the writes among the read commands (content ideas refresh,
 * crawler ping and submit) are for admins only: others are refused before any request,
 * and the refusal is audited.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { useReadHarness } from './read-commands-harness.js';

const ADMIN = 'UADMIN001';
const h = useReadHarness(
  {
    env: { SLACK_ADMIN_USERS: ADMIN },
    simulator: { generationMs: 50 },
    refreshTiming: { pollIntervalMs: 20, timeoutMs: 5000 },
  },
  { resetEach: false },
);

beforeAll(() => {
  h.slack.addUser({ id: ADMIN, name: 'admin' });
});
beforeEach(() => {
  h.sim.control.reset();
});

describe('admin-only writes', () => {
  it('refuses refresh, ping and submit to a non-admin before any request, and audits it', async () => {
    const refresh = await h.command('ideas "Acme Analytics" refresh');
    expect(refresh.reply.text).toContain("Only the bot's admins can refresh content ideas");
    const ping = await h.command('crawler "Acme Analytics" ping');
    expect(ping.reply.text).toContain("Only the bot's admins can send the crawler verification ping");
    const submit = await h.command('crawler "Acme Analytics" submit https://www.acmeanalytics.com/');
    expect(submit.reply.text).toContain("Only the bot's admins can submit URLs to AI search");
    expect(h.sim.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    const audit = await h.deps.auditLog.recent(3);
    expect(audit.map((e) => [e.action, e.result])).toEqual([
      ['submit URLs to AI search', 'refused: not an admin'],
      ['send the crawler verification ping', 'refused: not an admin'],
      ['refresh content ideas', 'refused: not an admin'],
    ]);
  });

  it('lets an admin refresh, ping and submit; reads stay open to everyone', async () => {
    await h.command('ideas "Acme Analytics" refresh', ADMIN);
    await h.command('crawler "Acme Analytics" ping', ADMIN);
    await h.command('crawler "Acme Analytics" submit https://www.acmeanalytics.com/', ADMIN);
    expect(h.sim.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
      '/get-content-ideas',
      '/crawler/verification-ping',
      '/crawler/submit-to-search',
    ]);
    const read = await h.command(`ideas ${SEED_BRANDS.acme.id}`);
    expect(read.reply.text).toContain('Content ideas for Acme Analytics');
  });
});
