/**
 * The brand subcommands end to end: the real service between the local Slack and the API
 * simulator. Each test checks the request that reached the simulator (method, path,
 * query, body) and that the reply shows the simulator's data.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { replyAfterRefusedTable } from '../helpers/refused-table.js';
import { brandKit, type ReplyBody, resetWorld } from './brand-test-kit.js';
import { cellShown, dataTables, tableRow } from './read-commands-harness.js';
import { type Harness, startHarness } from './service-harness.js';

let h: Harness;
const k = brandKit(() => h);
const { acme, globex, acmeLabs } = SEED_BRANDS;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => resetWorld(h));

/** The Remove buttons of a markets reply (their action_ids carry the row's index). */
const removeButtons = (reply: ReplyBody) =>
  (reply.blocks as Array<Record<string, unknown>>)
    .filter((b) => b['type'] === 'actions')
    .flatMap((b) => b['elements'] as Array<Record<string, unknown>>)
    .filter((e) => String(e['action_id']).startsWith('vis:markets:remove'));

describe('brand', () => {
  it('asks for one brand with markets and aliases and shows them with buttons into the views', async () => {
    const { reply } = await k.command('brand "Acme Analytics"');
    expect(k.brandReads()).toEqual([
      expect.objectContaining({
        path: '/get-brands',
        query: { brand_id: acme.id, include: 'markets,aliases' },
      }),
    ]);
    const text = k.blockText(reply);
    for (const shown of [
      '*United States* (US) · :star: primary',
      '*Germany* (DE)',
      '*Canada* (CA)',
      'AcmeAnalytics',
      'Acme Analytics Inc.',
      'San Francisco',
    ]) {
      expect(text).toContain(shown);
    }
    for (const id of [
      'vis:open:markets',
      'vis:open:citations',
      'vis:markets:add',
      'vis:aliases:edit',
      'vis:share',
    ]) {
      expect(k.elements(reply, id)).toHaveLength(1);
    }
    expect(JSON.parse(String(k.elements(reply, 'vis:open:markets')[0]!['value']))).toEqual({
      brandId: acme.id,
    });
    expect(k.elements(reply, 'vis:share')[0]!['value']).toBe(`brand ${acme.id}`);
    expect(reply.text).toContain('Acme Analytics');
  });

  it('explains global mode for a brand without a location', async () => {
    const { reply } = await k.command('brand globex');
    expect(k.blockText(reply)).toContain('Global mode');
  });
});

describe('markets', () => {
  it('lists the markets as a table Slack accepts, primary first, a confirmable Remove button per other market', async () => {
    // k.command fails the test when the local Slack (which validates data_table) refuses it.
    const { responseUrlId, reply } = await k.command('markets "Acme Analytics"');
    expect(k.brandReads()).toEqual([
      expect.objectContaining({ query: { brand_id: acme.id, include: 'markets' } }),
    ]);
    const { markets } = await k.simBrand(acme.id);
    const [table, ...others] = dataTables(reply as never);
    expect(others).toEqual([]);
    expect(table!.caption).toBe(`Markets (${markets.length})`);
    expect(table!.page_size).toBe(10);
    // No market of the simulator's has a name, so there is no column of dashes for it.
    expect(markets.some((m) => (m as { market_name?: string | null }).market_name)).toBe(false);
    expect(table!.rows[0]!.map(cellShown)).toEqual(['Country', 'Code', 'Primary', 'Tracking', 'Added']);
    expect(table!.rows).toHaveLength(markets.length + 1);
    // The primary market first, then by country name.
    expect(table!.rows.slice(1).map((r) => r[1]!.text)).toEqual(['US', 'CA', 'DE', 'GB']);
    const us = markets.find((m) => m.location === 'US')!;
    expect(tableRow(reply as never, 1)).toMatchObject({
      Country: 'United States',
      Code: 'US',
      Primary: '⭐',
      Tracking: 'On',
    });
    expect(tableRow(reply as never, 3)).toMatchObject({ Country: 'Germany', Primary: '—' });
    // The day added is a number Slack sorts by: the simulator's time, shown as a day.
    const added = table!.rows[1]![4]!;
    expect(added).toMatchObject({ type: 'raw_number', value: Date.parse(us.created_at) });
    expect(added.text).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(table!.rows.slice(1).every((r) => r[4]!.type === 'raw_number')).toBe(true);

    const removes = removeButtons(reply);
    expect(removes.map((b) => JSON.parse(String(b['value'])).location)).toEqual(['CA', 'DE', 'GB']);
    expect(removes.map((b) => (b['text'] as { text: string }).text)).toEqual([
      'Remove Canada (CA)',
      'Remove Germany (DE)',
      'Remove United Kingdom (GB)',
    ]);
    expect(removes.every((b) => b['confirm'] !== undefined)).toBe(true);
    expect(reply.text).toContain('US (primary)');
    // The text names the rows too (notifications, clients without the table).
    expect(reply.text).toContain('United States — Code: US · Primary: ⭐');

    // A Remove button under the table removes its market (after Slack's confirm).
    await k.click(responseUrlId, String(removes[1]!['action_id']));
    expect(k.writes()).toEqual([expect.objectContaining({ method: 'DELETE', path: '/get-brands/markets' })]);
    expect((await k.simBrand(acme.id)).markets.map((m) => m.location)).not.toContain('DE');
  });

  it('goes out once more with the markets as lines when the workspace refuses the table, Remove buttons kept', async () => {
    const { refused, resent } = await replyAfterRefusedTable(h.slack, h.appUrl, {
      text: 'markets "Acme Analytics"',
    });
    const reply = resent as ReplyBody;
    expect(dataTables(reply as never)).toEqual([]);
    const text = k.blockText(reply);
    expect(text).toContain('*Markets (4)*');
    expect(text).toContain('• United States — Code: US · Primary: ⭐ · Tracking: On');
    expect(text).toContain('• Germany — Code: DE · Primary: — · Tracking: On');
    expect(removeButtons(reply).map((b) => JSON.parse(String(b['value'])).location)).toEqual([
      'CA',
      'DE',
      'GB',
    ]);
    expect(reply.text).toBe((refused as ReplyBody).text);
  });

  it('adds a market: ISO-2 country and a display name in the body', async () => {
    const { reply } = await k.command('markets "Acme Analytics" add FR France launch');
    expect(k.writes()).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/get-brands/markets',
        body: { brand_id: acme.id, location: 'FR', market_name: 'France launch' },
        status: 201,
      }),
    ]);
    expect(reply.text).toContain('Added the market *France (FR)*');
    expect((await k.simBrand(acme.id)).markets.map((m) => m.location)).toContain('FR');
  });

  it('accepts full country names and the UK alias', async () => {
    await k.command('markets "Globex Corporation" add United Kingdom');
    await k.command('markets globex add uk');
    expect(k.writes().map((w) => (w.body as { location: string }).location)).toEqual(['GB', 'GB']);
  });

  it('explains a duplicate with the service’s 409 message', async () => {
    const { reply } = await k.command('markets "Acme Analytics" add DE');
    expect(k.writes()).toEqual([expect.objectContaining({ method: 'POST', status: 409 })]);
    expect(reply.text).toContain('Market DE already exists');
  });

  it('suggests the closest country for a typo and sends nothing', async () => {
    const { reply } = await k.command('markets "Acme Analytics" add Germny');
    expect(reply.text).toContain('Did you mean *Germany* (DE)');
    expect(k.writes()).toEqual([]);
  });

  it('refuses to remove the primary market before any request, pointing to `location`', async () => {
    const { reply } = await k.command('markets "Acme Analytics" remove US');
    expect(reply.text).toContain('primary market');
    expect(reply.text).toContain('/visibility location');
    expect(k.writes()).toEqual([]);
    expect(k.brandReads()).toEqual([]);
  });

  it('refuses the primary market named by its id too, after reading the markets', async () => {
    const primary = (await k.simBrand(acme.id)).markets.find((m) => m.is_primary)!;
    h.sim.requests.length = 0;
    const { reply } = await k.command(`markets "Acme Analytics" remove ${primary.id}`);
    expect(reply.text).toContain('is the primary market');
    expect(k.writes()).toEqual([]);
  });

  it('says which markets exist when the one to remove is not one of them', async () => {
    const { reply } = await k.command('markets "Acme Analytics" remove Japan');
    expect(reply.text).toContain('has no market Japan (JP)');
    expect(reply.text).toContain('Germany (DE)');
    expect(k.writes()).toEqual([]);
  });
});

describe('location', () => {
  it('sends the ISO-2 code, region, city and provider code', async () => {
    const { reply } = await k.command(
      'location "Globex Corporation" UK --region England --city London --provider-code 2826',
    );
    expect(k.writes()).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: '/get-brands/location',
        body: {
          brand_id: globex.id,
          country: 'GB',
          location_region: 'England',
          location_city: 'London',
          location_provider_code: 2826,
        },
        status: 200,
      }),
    ]);
    expect(reply.text).toContain('*United Kingdom (GB)* (England, London)');
    expect(reply.text).toContain('2826');
    // The brand list is fresh after a change: the next command sees the new location.
    const { reply: brandReply } = await k.command('brand globex');
    expect(k.blockText(brandReply)).toContain('Primary market: *GB*');
  });

  it('accepts a full country name, unquoted', async () => {
    await k.command('location "Acme Labs" United States');
    expect(k.writes()[0]!.body).toEqual({ brand_id: acmeLabs.id, country: 'US' });
  });

  it('suggests names for an unknown country and sends nothing', async () => {
    const { reply } = await k.command('location globex "Untied Kingdom"');
    expect(reply.text).toContain('Did you mean *United Kingdom* (GB)');
    expect(k.writes()).toEqual([]);
  });

  it('asks for the brand when only a country is given and the channel has no default', async () => {
    const { reply } = await k.command('location DE');
    expect(reply.text).toContain('Which brand should move to Germany (DE)?');
    expect(k.writes()).toEqual([]);
    expect(h.slack.callsTo('views.open')).toEqual([]);
  });

  it.each(['0', '-5', 'abc', '1.5'])('refuses --provider-code %s before any request', async (code) => {
    const { reply } = await k.command(`location globex DE --provider-code ${code}`);
    expect(reply.text).toContain('positive whole number');
    expect(k.writes()).toEqual([]);
  });
});

describe('aliases', () => {
  it('lists the aliases', async () => {
    const { reply } = await k.command('aliases "Acme Analytics"');
    expect(k.brandReads()).toEqual([
      expect.objectContaining({ query: { brand_id: acme.id, include: 'aliases' } }),
    ]);
    for (const a of ['Acme', 'AcmeAnalytics', 'Acme Analytics Inc.']) expect(k.blockText(reply)).toContain(a);
    expect(k.elements(reply, 'vis:share')).toHaveLength(1);
  });

  it('adds one: reads the list, then sends all of it plus the new one', async () => {
    const { reply } = await k.command('aliases "Acme Analytics" add Acme Insights');
    expect(k.brandReads()).toEqual([
      expect.objectContaining({ query: { brand_id: acme.id, include: 'aliases' } }),
    ]);
    expect(k.writes()).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: '/get-brands/aliases',
        body: {
          brand_id: acme.id,
          aliases: ['Acme', 'AcmeAnalytics', 'Acme Analytics Inc.', 'Acme Insights'],
        },
      }),
    ]);
    expect(reply.text).toContain('added *Acme Insights*');
  });

  it('does not send an alias that is already there in another case', async () => {
    const { reply } = await k.command('aliases "Acme Analytics" add ACMEANALYTICS');
    expect(reply.text).toContain('already an alias');
    expect(k.writes()).toEqual([]);
  });

  it('removes one, matching case-insensitively', async () => {
    await k.command('aliases "Acme Analytics" remove acmeanalytics');
    expect(k.writes()[0]!.body).toEqual({ brand_id: acme.id, aliases: ['Acme', 'Acme Analytics Inc.'] });
  });

  it('explains a removal of an alias that does not exist, without a write', async () => {
    const { reply } = await k.command('aliases "Acme Analytics" remove Acme Corp');
    expect(reply.text).toContain('"Acme Corp" is not an alias');
    expect(reply.text).toContain('"AcmeAnalytics"');
    expect(k.writes()).toEqual([]);
  });

  it('replaces the list with set, deduplicated case-insensitively', async () => {
    const { reply } = await k.command('aliases "Acme Labs" set Acme ML, AcmeLabs, acme ml, Acme Research');
    expect(k.writes()[0]!.body).toEqual({
      brand_id: acmeLabs.id,
      aliases: ['Acme ML', 'AcmeLabs', 'Acme Research'],
    });
    expect(reply.text).toContain('Acme Research');
  });
});

describe('use', () => {
  it('sets the channel default, so later commands can leave the brand out, and clears it', async () => {
    const set = await k.command('use "Acme Labs"');
    expect(set.reply.text).toContain('*Acme Labs* is now this channel');
    await k.command('markets');
    expect(k.brandReads().at(-1)!.query).toEqual({ brand_id: acmeLabs.id, include: 'markets' });

    const shown = await k.command('use');
    expect(shown.reply.text).toContain('default brand is *Acme Labs*');

    // Another channel has its own default (none).
    const elsewhere = await k.command('markets', { channelId: 'C0OTHER' });
    expect(elsewhere.reply.text).toContain('Which brand?');

    await k.command('use --clear');
    const after = await k.command('markets');
    expect(after.reply.text).toContain('Which brand?');
    expect((await h.deps.auditLog.recent(2)).map((e) => [e.action, e.result])).toEqual([
      ['clear the channel default brand', 'ok'],
      ['set the channel default brand', 'ok'],
    ]);
  });

  it('takes the country alone for `location` and verbs alone for `markets` with a default brand', async () => {
    await k.command('use globex');
    await k.command('location Germany');
    await k.command('markets add FR');
    expect(k.writes().map((w) => [w.method, w.body])).toEqual([
      ['PUT', { brand_id: globex.id, country: 'DE' }],
      ['POST', { brand_id: globex.id, location: 'FR' }],
    ]);
  });
});

describe('status', () => {
  it('shows API usage against the daily limit and the limiter, without calling the API', async () => {
    await k.command('brands');
    h.sim.requests.length = 0;
    const { reply } = await k.command('status');
    const text = k.blockText(reply);
    expect(text).toContain('API usage today');
    expect(text).toMatch(/\d+ of 10,000 requests/);
    expect(text).toContain('tokens');
    expect(text).toContain('Waiting: 0 interactive');
    expect(h.sim.requests).toEqual([]);
    expect(k.elements(reply, 'vis:share')[0]!['value']).toBe('status');
  });
});

describe('help', () => {
  it('lists every brand subcommand with an example that names a simulator brand', async () => {
    const { reply } = await k.command('help');
    const text = k.blockText(reply);
    for (const name of [
      'brand [brand]',
      'markets [brand]',
      'location [brand]',
      'aliases [brand]',
      'use [brand]',
      'status',
    ]) {
      expect(text).toContain(`/visibility ${name}`);
    }
    expect(text).toContain('Acme Analytics');
  });
});
