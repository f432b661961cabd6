/**
 * Slack's Block Kit limits (docs.slack.dev/reference/block-kit, docs/slack.md;
 * the data_table and data_visualization pages for the table and chart figures).
 * Data only; `fitMessage`/`fitView` apply it.
 * The local Slack keeps its own table (src/dev/local-slack/slack-limits.ts) on purpose: it is
 * the test oracle for this one, and one shared table could not catch a wrong number.
 */
export const BLOCK_KIT_LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  /** Serialised blocks of a message; Slack answers msg_blocks_too_long a little above 13 k. */
  messageBlocksChars: 12_000,
  /** The fallback `text`: Slack recommends at most 4000 characters. */
  fallbackText: 4000,
  sectionText: 3000,
  sectionFields: 10,
  sectionFieldText: 2000,
  headerText: 150,
  contextElements: 10,
  contextText: 3000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  url: 3000,
  actionId: 255,
  blockId: 255,
  placeholder: 150,
  optionText: 75,
  optionValue: 150,
  optionDescription: 75,
  selectOptions: 100,
  overflowOptions: 5,
  checkboxOptions: 10,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  imageAltText: 2000,
  inputLabel: 2000,
  inputHint: 2000,
  viewTitle: 24,
  viewButton: 24,
  callbackId: 255,
  privateMetadata: 3000,
  /** data_table: rows besides the header, columns, characters across all cells, page size. */
  tableRows: 100,
  tableColumns: 20,
  tableChars: 10_000,
  tablePageSize: 100,
  /** data_visualization: title, series, a series' name and points, labels, axis titles, pie slices. */
  chartTitle: 50,
  chartSeries: 6,
  chartSeriesName: 20,
  chartPoints: 20,
  chartLabel: 20,
  chartAxisLabel: 50,
  pieSegments: 6,
  chartsPerMessage: 2,
} as const;
