import type { Migration } from '../migrate.js';

/**
 * Workspaces whose Slack refused a chart block (`data_visualization`): later messages to
 * them carry the chart as an image straight away instead of being refused first. In the
 * database so every process, and the next one after a restart, knows it.
 */
export const workspaceCharts: Migration = {
  version: 13,
  name: 'workspace-charts',
  sqlite: `
    CREATE TABLE workspace_charts (
      team_id TEXT PRIMARY KEY,
      images_since_ms INTEGER NOT NULL,
      reason TEXT NOT NULL
    );
  `,
  postgres: `
    CREATE TABLE workspace_charts (
      team_id text PRIMARY KEY,
      images_since_ms bigint NOT NULL,
      reason text NOT NULL
    );
  `,
};
