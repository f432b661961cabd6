/**
 * Block Kit types, taken from Bolt's re-export of @slack/types (not a direct dependency),
 * with every text object's `text` narrowed to `Mrkdwn`: a block, modal or Home view built
 * with unescaped service or user text does not type-check (see mrkdwn.ts).
 */
import type { types } from '@slack/bolt';
import type { Mrkdwn } from './mrkdwn.js';

type Primitive = string | number | boolean | bigint | symbol | null | undefined;

/** `T` with the `text` of every `{type: 'mrkdwn' | 'plain_text', text}` object required to be Mrkdwn. */
export type EscapedText<T> = T extends Primitive
  ? T
  : T extends readonly (infer U)[]
    ? EscapedText<U>[]
    : T extends { type: 'mrkdwn' | 'plain_text'; text: string }
      ? { [K in keyof T]: K extends 'text' ? Mrkdwn : EscapedText<T[K]> }
      : { [K in keyof T]: EscapedText<T[K]> };

export type KnownBlock = EscapedText<types.KnownBlock>;
export type SectionBlock = EscapedText<types.SectionBlock>;
export type ActionsBlock = EscapedText<types.ActionsBlock>;
export type ContextBlock = EscapedText<types.ContextBlock>;
export type Button = EscapedText<types.Button>;
export type View = EscapedText<types.View>;
export type ModalView = EscapedText<types.ModalView>;
export type HomeView = EscapedText<types.HomeView>;

/** A data_table cell: `raw_text` (simple text) or `raw_number` (Slack sorts a column of them as numbers). */
export type RawTextCell = { type: 'raw_text'; text: Mrkdwn };
export type RawNumberCell = { type: 'raw_number'; value: number; text: Mrkdwn };
/** A cell whose text is a link (a page by its title): `rich_text` holding one link. */
export type LinkTextCell = {
  type: 'rich_text';
  elements: [{ type: 'rich_text_section'; elements: [{ type: 'link'; url: string; text: Mrkdwn }] }];
};
export type DataTableCell = RawTextCell | RawNumberCell | LinkTextCell;

/**
 * Slack's `data_table` block (https://docs.slack.dev/reference/block-kit/blocks/data-table-block),
 * narrowed to the cells we build and with every shown string escaped: the caption and the
 * cells are plain strings, not text objects, so `EscapedText` cannot reach them.
 */
export interface DataTableBlock {
  type: 'data_table';
  block_id?: string;
  caption: Mrkdwn;
  /** The header row first; every row the same length. */
  rows: DataTableCell[][];
  page_size?: number;
  row_header_column_index?: number;
}

export interface ChartPoint {
  label: Mrkdwn;
  value: number;
}

export interface ChartSeries {
  name: Mrkdwn;
  data: ChartPoint[];
}

interface ChartAxisConfig {
  /** The x-axis, in order: every point's label is one of these. */
  categories: Mrkdwn[];
  x_label?: Mrkdwn;
  y_label?: Mrkdwn;
}

export type ChartPayload =
  | { type: 'line' | 'bar' | 'area'; series: ChartSeries[]; axis_config: ChartAxisConfig }
  | { type: 'pie'; segments: ChartPoint[] };

/**
 * Slack's `data_visualization` block
 * (https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block). @slack/types
 * 3.2 (the latest) has no type for it yet, hence this one; strings escaped as elsewhere.
 */
export interface DataVisualizationBlock {
  type: 'data_visualization';
  block_id?: string;
  title: Mrkdwn;
  chart: ChartPayload;
}
