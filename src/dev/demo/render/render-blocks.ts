/**
 * Block Kit blocks as terminal lines (https://docs.slack.dev/reference/block-kit/blocks):
 * headers, sections (text, two-column fields, accessory), context dimmed, dividers, images
 * as `[image: alt]`, rows of numbered buttons, tables as aligned columns and charts as
 * bars or sparklines with their figures. Pure and deterministic.
 */

import { mrkdwnToTerminal, plainToTerminal } from '../../../terminal/mrkdwn-to-terminal.js';
import { visibleWidth } from '../../../terminal/style.js';
import { type Json, list, plainOf, rec, str, textObject } from './block-json.js';
import { renderChart } from './render-chart.js';
import {
  createRenderContext,
  type RenderContext,
  type Rendered,
  type RenderOptions,
} from './render-context.js';
import { renderDataTable } from './render-data-table.js';
import { renderElement } from './render-element.js';
import { twoColumns } from './render-fields.js';
import { renderRichText } from './render-rich-text.js';

const DIVIDER_WIDTH = 40;

/** A text object in terminal styling (mrkdwn or plain). */
function renderText(value: unknown, ctx: RenderContext): string {
  const t = textObject(value);
  if (!t) return '';
  return t.mrkdwn ? mrkdwnToTerminal(t.text, ctx.style, ctx.tokens) : plainToTerminal(t.text);
}

/** Inline items joined by two spaces, wrapped before `ctx.width`. */
function wrapRow(items: readonly string[], ctx: RenderContext, indent = ''): string[] {
  const rows: string[] = [];
  let row = '';
  for (const item of items.filter(Boolean)) {
    if (row && visibleWidth(row) + 2 + visibleWidth(item) > ctx.width) {
      rows.push(row);
      row = '';
    }
    row = row ? `${row}  ${item}` : `${indent}${item}`;
  }
  if (row) rows.push(row);
  return rows;
}

/** Blocks that start a new paragraph get a blank line before them (unless first). */
const SPACED = new Set([
  'header',
  'section',
  'image',
  'rich_text',
  'input',
  'video',
  'file',
  'data_table',
  'data_visualization',
]);

function renderBlock(block: Json, ctx: RenderContext): string[] {
  const { style } = ctx;
  const blockId = str(block['block_id']);
  switch (block['type']) {
    case 'header':
      return [style.heading(plainToTerminal(plainOf(block['text'])))];
    case 'divider':
      return [style.dim('─'.repeat(DIVIDER_WIDTH))];
    case 'section': {
      const lines: string[] = [];
      const text = renderText(block['text'], ctx);
      if (text) lines.push(...text.split('\n'));
      const fields = list(block['fields']).map((f) => renderText(f, ctx));
      if (fields.length) lines.push(...twoColumns(fields));
      if (block['accessory'] !== undefined) {
        const accessory = renderElement(block['accessory'], blockId, ctx);
        if (accessory) lines.push(`  ${accessory}`);
      }
      return lines;
    }
    case 'context': {
      const parts = list(block['elements']).map((e) => renderElement(e, blockId, ctx));
      return [style.dim(parts.filter(Boolean).join('  '))];
    }
    case 'actions':
      return wrapRow(
        list(block['elements']).map((e) => renderElement(e, blockId, ctx)),
        ctx,
      );
    case 'image': {
      const title = plainOf(block['title']);
      return [style.dim(`[image: ${str(block['alt_text']) ?? ''}]${title ? ` ${title}` : ''}`)];
    }
    case 'rich_text':
      return renderRichText(block, style, ctx.tokens);
    case 'video':
      return [style.dim(`[video: ${plainOf(block['title'])}]`)];
    case 'file':
      return [style.dim('[file]')];
    case 'input':
      return [`${style.bold(plainOf(block['label']))}: ${renderElement(block['element'], blockId, ctx)}`];
    case 'data_table':
      return renderDataTable(block, ctx);
    case 'data_visualization':
      return renderChart(block, ctx);
    default:
      return [style.dim(`[${str(block['type']) ?? 'unknown'} block]`)];
  }
}

export function renderBlocksInto(blocks: readonly unknown[], ctx: RenderContext, lines: string[]): void {
  for (const raw of blocks) {
    const block = rec(raw);
    if (!block) continue;
    if (lines.length > 0 && SPACED.has(String(block['type']))) lines.push('');
    lines.push(...renderBlock(block, ctx));
  }
}

export function renderBlocks(blocks: readonly unknown[], options: RenderOptions): Rendered {
  const ctx = createRenderContext(options);
  const lines: string[] = [];
  renderBlocksInto(blocks, ctx, lines);
  return { lines, clickables: ctx.clickables };
}

/** A message: its blocks, or its mrkdwn `text` when it has none. */
export function renderMessage(
  message: { text?: string | undefined; blocks?: readonly unknown[] | undefined },
  options: RenderOptions,
): Rendered {
  if (message.blocks && message.blocks.length > 0) return renderBlocks(message.blocks, options);
  return {
    lines: mrkdwnToTerminal(message.text ?? '', options.style, options.tokens).split('\n'),
    clickables: [],
  };
}
