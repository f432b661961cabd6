/**
 * The Slack limits the local Slack enforces, in one table (data apart from logic).
 * Sources:
 * - blocks per surface, text lengths: https://docs.slack.dev/reference/block-kit/blocks
 * - elements: https://docs.slack.dev/reference/block-kit/block-elements
 * - message text: https://docs.slack.dev/reference/methods/chat.postMessage ("truncates
 *   text longer than 40,000 characters"; `msg_too_long`)
 * - views: https://docs.slack.dev/reference/views (title/submit/close ≤ 24, private_metadata ≤ 3000)
 * - response_url: https://docs.slack.dev/interactivity/handling-user-interaction
 *   ("up to 5 times within 30 minutes")
 * - trigger_id: expires 3 s after it is issued (same page).
 * - data_table: https://docs.slack.dev/reference/block-kit/blocks/data-table-block (2–101
 *   rows with the header, 1–20 columns, every row the same length, ≤ 10,000 characters
 *   across a table's cells and across all tables of a message, page_size 1–100)
 * - data_visualization: https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block
 *   (title ≤ 50, 1–6 series or pie segments, names and labels ≤ 20, 1–20 points per series,
 *   axis titles ≤ 50, at most 2 per message)
 * Kept apart from the product's own table (src/messages/block-kit-limit-table.ts) on
 * purpose: this is the oracle the product's fitting is tested against.
 */
export const SLACK_LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  messageTextChars: 40_000,
  /**
   * Slack documents no exact figure; `msg_blocks_too_long` appears at roughly 13 k characters
   * of block text (docs/slack.md). Counted over the text of every text object in the blocks.
   */
  messageBlocksTextChars: 13_000,
  sectionText: 3000,
  sectionFields: 10,
  sectionFieldText: 2000,
  headerText: 150,
  buttonText: 75,
  buttonValue: 2000,
  url: 3000,
  actionId: 255,
  blockId: 255,
  actionsElements: 25,
  contextElements: 10,
  optionText: 75,
  optionValue: 150,
  selectOptions: 100,
  overflowOptions: 5,
  placeholderText: 150,
  inputLabel: 2000,
  inputHint: 2000,
  imageAltText: 2000,
  viewTitle: 24,
  viewButtonText: 24,
  viewCallbackId: 255,
  viewPrivateMetadata: 3000,
  responseUrlUses: 5,
  responseUrlTtlMs: 30 * 60 * 1000,
  triggerTtlMs: 3000,
  historyDefaultLimit: 100,
  historyMaxLimit: 999,
  tableRows: 101,
  tableColumns: 20,
  tableChars: 10_000,
  tablePageSize: 100,
  chartTitle: 50,
  chartSeries: 6,
  chartName: 20,
  chartPoints: 20,
  chartAxisLabel: 50,
  pieSegments: 6,
  chartsPerMessage: 2,
} as const;
