/**
 * Who may change brands: with SLACK_ADMIN_USERS set only those users, and never on a brand
 * where the API key is a viewer. Refusals happen before any write request reaches the
 * service, and every attempt (made, refused or failed) is in the audit log.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { sqliteDbOf } from '../store/temp-db.js';
import { brandKit, resetWorld } from './brand-test-kit.js';
import { type Harness, startHarness } from './service-harness.js';

let h: Harness;
const k = brandKit(() => h);
const { acme, northwind } = SEED_BRANDS;
const ADMIN = 'U0ADMIN01';
const MEMBER = 'U0LOCALUSR';

beforeAll(async () => {
  h = await startHarness({ env: { SLACK_ADMIN_USERS: ADMIN } });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => {
  resetWorld(h);
  h.slack.addUser({ id: ADMIN, name: 'brand.admin' });
  sqliteDbOf(h.deps.store).prepare('DELETE FROM audit_log').run();
});

const WRITE_COMMANDS = [
  'markets "Acme Analytics" add FR',
  'markets "Acme Analytics" remove CA',
  'location "Acme Analytics" DE',
  'aliases "Acme Analytics" add Acme Insights',
  'aliases "Acme Analytics" remove Acme',
  'aliases "Acme Analytics" set Acme, AcmeHQ',
];
const FORM_COMMANDS = [
  'markets "Acme Analytics" add',
  'location "Acme Analytics"',
  'aliases "Acme Analytics" edit',
];

describe('with SLACK_ADMIN_USERS set', () => {
  it.each(WRITE_COMMANDS)('refuses `%s` from a non-admin before any write', async (command) => {
    const { reply } = await k.command(command, { userId: MEMBER });
    expect(reply.text).toContain("Only the bot's admins can");
    expect(reply.text).toContain(`<@${ADMIN}>`);
    expect(k.writes()).toEqual([]);
    expect(k.brandReads()).toEqual([]);
    expect(await h.deps.auditLog.recent(5)).toEqual([
      expect.objectContaining({ userId: MEMBER, result: 'refused: not an admin' }),
    ]);
  });

  it.each(FORM_COMMANDS)('does not open the form of `%s` for a non-admin', async (command) => {
    const { reply } = await k.command(command, { userId: MEMBER });
    expect(reply.text).toContain("Only the bot's admins can");
    expect(h.slack.callsTo('views.open')).toEqual([]);
  });

  it('refuses a non-admin’s click on a Remove button an admin was shown', async () => {
    const { responseUrlId } = await k.command('markets "Acme Analytics" remove CA', { userId: ADMIN });
    const reply = await k.click(responseUrlId, 'vis:markets:remove', { userId: MEMBER });
    expect(reply.text).toContain("Only the bot's admins can remove markets");
    expect(k.writes()).toEqual([]);
  });

  it('refuses a form submission inline when the submitter is not an admin, without a write', async () => {
    await h.slack.slashCommand(h.appUrl, { text: 'markets "Acme Analytics" add', userId: ADMIN });
    const view = await h.slack.waitFor(
      () => h.slack.views().find((v) => v.callback_id === 'vis:markets:add'),
      5000,
    );
    const res = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:markets:add',
      viewId: view.id,
      values: { country: { value: { type: 'static_select', selected_option: { value: 'FR' } } } },
      userId: MEMBER,
    });
    expect(res.json).toMatchObject({
      response_action: 'errors',
      errors: { country: expect.stringContaining("Only the bot's admins can add markets") },
    });
    expect(k.writes()).toEqual([]);
  });

  it('lets an admin write, and records every attempt in the audit log', async () => {
    await k.command('markets "Acme Analytics" add FR', { userId: ADMIN });
    await k.command('markets "Acme Analytics" add DE', { userId: ADMIN }); // 409
    await k.command('markets "Acme Analytics" remove US', { userId: ADMIN }); // primary: refused
    await k.command('aliases "Acme Analytics" add AcmeHQ', { userId: MEMBER }); // not an admin
    expect(k.writes().map((w) => [w.method, w.status])).toEqual([
      ['POST', 201],
      ['POST', 409],
    ]);
    const log = (await h.deps.auditLog.recent(10)).reverse();
    expect(log.map((e) => [e.userId, e.brandId, e.action, e.result])).toEqual([
      [ADMIN, acme.id, 'add markets', 'ok'],
      [ADMIN, acme.id, 'add markets', 'error: api_conflict'],
      [ADMIN, acme.id, 'remove markets', 'refused: primary_market'],
      [MEMBER, null, 'change aliases', 'refused: not an admin'],
    ]);
    expect(log[0]).toMatchObject({
      channelId: h.slack.defaultChannelId,
      detail: { location: 'FR', marketName: null },
    });
    expect(log.every((e) => e.atMs > 0)).toBe(true);
  });
});

describe('a brand where the API key is a viewer (Northwind)', () => {
  const VIEWER_WRITES = [
    'markets "Northwind Outfitters" add FR',
    'markets "Northwind Outfitters" remove CA',
    'markets "Northwind Outfitters" add',
    'location "Northwind Outfitters" DE',
    'location "Northwind Outfitters"',
    'aliases "Northwind Outfitters" add Northwind Co',
    'aliases "Northwind Outfitters" set Northwind',
    'aliases "Northwind Outfitters" remove Northwind',
    'aliases "Northwind Outfitters" edit',
  ];

  it.each(VIEWER_WRITES)('refuses `%s` before any request about the brand, saying why', async (command) => {
    const { reply } = await k.command(command, { userId: ADMIN });
    expect(reply.text).toContain('viewer');
    expect(reply.text).toContain('owner or editor');
    expect(k.writes()).toEqual([]);
    expect(k.brandReads()).toEqual([]);
    expect(h.slack.callsTo('views.open')).toEqual([]);
    expect(await h.deps.auditLog.recent(5)).toEqual([
      expect.objectContaining({ userId: ADMIN, brandId: northwind.id, result: 'refused: viewer_role' }),
    ]);
  });

  it('still shows its markets and aliases, read-only, with no edit buttons', async () => {
    const markets = await k.command('markets "Northwind Outfitters"', { userId: ADMIN });
    expect(k.blockText(markets.reply)).toContain('Read-only');
    // No Remove button under the table either (theirs carry the row's index).
    expect(k.blockText(markets.reply)).not.toContain('"action_id":"vis:markets:remove');
    expect(k.blockText(markets.reply)).toContain('"type":"data_table"');
    expect(k.elements(markets.reply, 'vis:markets:add')).toEqual([]);
    const brand = await k.command('brand northwind', { userId: ADMIN });
    expect(k.elements(brand.reply, 'vis:aliases:edit')).toEqual([]);
    expect(k.elements(brand.reply, 'vis:share')).toHaveLength(1);
  });

  it('refuses an edit button carrying the viewer brand before opening the form', async () => {
    const { responseUrlId } = await k.command('brand "Acme Analytics"', { userId: ADMIN });
    h.sim.requests.length = 0;
    const reply = await k.click(responseUrlId, 'vis:aliases:edit', {
      value: JSON.stringify({ brandId: northwind.id }),
      userId: ADMIN,
    });
    expect(reply.text).toContain('viewer');
    expect(h.slack.callsTo('views.open')).toEqual([]);
    expect(k.brandReads()).toEqual([]);
  });
});
