/** WorkspaceChartsRepo on both backends: a workspace that refused a chart block, remembered. */
import { expect, it } from 'vitest';
import { describeBackends } from './store-backends.js';

const T = 1_700_000_000_000;

describeBackends('workspace charts', (backend) => {
  it('remembers a workspace that refused a chart, for every process, until forgotten', async () => {
    const b = backend();
    const repo = b.store().workspaceCharts;
    expect(await repo.wantsImages('T1')).toBe(false);
    await repo.rememberImages('T1', T, 'invalid_blocks');
    // Another connection (another process) sees it too.
    expect(await b.other().store().workspaceCharts.wantsImages('T1')).toBe(true);
    expect(await repo.wantsImages('T2')).toBe(false);
    await repo.forget('T1');
    expect(await repo.wantsImages('T1')).toBe(false);
  });

  it('keeps the first refusal: a second one is not an error and changes nothing', async () => {
    const b = backend();
    const repo = b.store().workspaceCharts;
    await repo.rememberImages('T1', T, 'invalid_blocks');
    await repo.rememberImages('T1', T + 1000, 'again');
    const rows = await b.rows<{ images_since_ms: number | string; reason: string }>(
      'SELECT images_since_ms, reason FROM workspace_charts WHERE team_id = ?',
      'T1',
    );
    expect(rows.map((r) => [Number(r.images_since_ms), r.reason])).toEqual([[T, 'invalid_blocks']]);
  });
});
