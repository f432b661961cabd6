/**
 * How each workspace gets its charts (table workspace_charts). A workspace is in the table
 * once its Slack refused a `data_visualization` block (some workspaces and clients do not
 * have it yet, and Slack answers `invalid_blocks`); from then on its messages carry the
 * chart as an image and are not refused first. Absent: charts are drawn by Slack.
 */
export interface WorkspaceChartsRepo {
  /** Remembers that `teamId` refused a chart block; the first refusal's time is kept. */
  rememberImages(teamId: string, atMs: number, reason: string): Promise<void>;
  /** True when `teamId` refused a chart block before. */
  wantsImages(teamId: string): Promise<boolean>;
  /** Lets `teamId` try Slack's own charts again (its Slack may draw them by now). */
  forget(teamId: string): Promise<void>;
}
