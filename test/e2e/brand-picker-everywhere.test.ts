/**
 * Every command that needs a brand, typed without one in a channel with no default brand,
 * answers with the brand picker (not only an error to retype), and choosing a brand runs
 * the same command for it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { brandKit, resetWorld } from './brand-test-kit.js';
import { type Harness, startHarness } from './service-harness.js';

let h: Harness;
const k = brandKit(() => h);

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => resetWorld(h));

const COMMANDS = [
  'brand',
  'markets',
  'markets remove CA',
  'location',
  'aliases',
  'aliases set Acme One',
  'citations',
  'citations history --days 30',
  'citations feed',
  'crawler',
  'crawler live',
  'crawler access',
  'crawler submit-status',
  'aipages',
  'ideas',
  'ideas refresh',
  'subscribe',
  'location DE',
  'location Germany --city Munich',
  'markets add DE',
  'crawler ping',
  'crawler pages',
  'crawler preview-fix fnd_x',
  'crawler submit https://www.acmeanalytics.com/',
  'citations sources www.g2.com',
  'citations queries',
  'citations heatmap',
];

describe('a command without a brand, in a channel without a default', () => {
  it.each(COMMANDS)('`%s` offers the brand picker', async (command) => {
    const { reply } = await k.command(command);
    expect(reply.text).toMatch(/Which brand( should move to Germany \(DE\))?\? Pick one/);
    const [select] = k.elements(reply, 'vis:choose-brand');
    expect(select, JSON.stringify(reply)).toBeDefined();
    const options = select!['options'] as Array<{ value: string }>;
    expect(options.map((o) => o.value)).toContain(SEED_BRANDS.globex.id);
    expect(k.writes()).toEqual([]);
  });

  it('`location DE --city Munich`: the brand chosen moves there, city and all', async () => {
    const { responseUrlId, reply } = await k.command('location DE --city Munich');
    expect(reply.text).toContain('Which brand should move to Germany (DE)? Pick one');
    const block = reply.blocks.find((b) => b['type'] === 'actions')!;
    const answer = await k.click(responseUrlId, 'vis:choose-brand', {
      blockId: String(block['block_id']),
      selectedOption: SEED_BRANDS.acmeLabs.id,
    });
    expect(answer.replace_original).toBe(true);
    expect(k.writes().map((w) => [w.method, w.path, w.body])).toEqual([
      [
        'PUT',
        '/get-brands/location',
        { brand_id: SEED_BRANDS.acmeLabs.id, country: 'DE', location_city: 'Munich' },
      ],
    ]);
  });
});
