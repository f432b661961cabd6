/**
 * `/visibility status` tells an admin how big the database is and what it keeps, in words:
 * through the local Slack and the real service on its SQLite file, with a retention set by
 * the environment. (The size and counts on Postgres: test/store/contract/database-size.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness({ env: { RETENTION_AUDIT_DAYS: '730', RETENTION_MESSAGES_DAYS: '30' } });
const text = (r: { blocks: unknown[] }) => JSON.stringify(r.blocks);

beforeAll(() => {
  h.channel('CSTAT');
});

describe('status, the database part', () => {
  it('shows the size and how many of each kind of row it keeps, and for how long', async () => {
    await h.command('subscribe "Acme Analytics"', 'CSTAT');
    const { rows } = await h.deps.store.databaseSize.size();
    const shown = text(await h.command('status', 'CSTAT'));
    // The SQLite file has a size in bytes, written as people read it.
    expect(shown).toMatch(/Size: \d+(\.\d)? (KB|MB)\./);
    expect(shown).toContain('It holds 1 subscription · ');
    expect(rows.auditEntries).toBeGreaterThan(0);
    expect(shown).toContain(
      `${rows.auditEntries} change${rows.auditEntries === 1 ? '' : 's'} in the audit log (kept for 2 years)`,
    );
    expect(shown).toContain('(posted ones kept for 30 days)');
    expect(shown).toContain("poll results (kept for 90 days after a brand's last poll)");
  });
});
