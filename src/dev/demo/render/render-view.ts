/**
 * A modal as a form, or a Home tab: title, the blocks, and for each input its label (the
 * start of which names it in `:submit`, form-inputs.ts), its type, initial value, numbered
 * options and any validation error Slack would show under it. Labels, never ids.
 */
import { plainOf, rec, str } from './block-json.js';
import { type FormInput, fieldKey, fieldNames, formInputs, initialText } from './form-inputs.js';
import { renderBlocksInto } from './render-blocks.js';
import {
  createRenderContext,
  type RenderContext,
  type Rendered,
  type RenderOptions,
} from './render-context.js';

/** Long selects (countries) show a sample: the form must stay readable. */
const MAX_LISTED_OPTIONS = 12;
const SAMPLE_OPTIONS = 8;

interface ViewLike {
  id?: string;
  type: string;
  callback_id?: string;
  title?: unknown;
  submit?: unknown;
  close?: unknown;
  blocks: readonly unknown[];
}

interface RenderViewOptions extends RenderOptions {
  /** `response_action: errors`: block_id → message. */
  errors?: Readonly<Record<string, string>>;
}

function inputLines(input: FormInput, name: string, ctx: RenderContext, error: string | undefined): string[] {
  const { style } = ctx;
  const lines = [`${style.bold(input.label)}${input.optional ? style.dim(' (optional)') : ''}`];
  const details = [input.type.replace(/_/g, ' ')];
  if (input.element['multiline'] === true) details.push('multiline');
  const placeholder = plainOf(input.element['placeholder']);
  if (placeholder) details.push(`placeholder "${placeholder}"`);
  const initial = initialText(input);
  if (initial !== undefined) details.push(`now "${initial}"`);
  details.push(style.dim(`:submit ${fieldKey(name)}=…`));
  lines.push(`  ↳ ${details.join(' · ')}`);
  const listed =
    input.options.length > MAX_LISTED_OPTIONS ? input.options.slice(0, SAMPLE_OPTIONS) : input.options;
  listed.forEach((o, i) => {
    lines.push(`    (${i + 1}) ${o.label}`);
  });
  if (listed.length < input.options.length) {
    const more = input.options.length - listed.length;
    lines.push(style.dim(`    … ${more} more: any option's label, or the start of it, will do`));
  }
  if (input.hint) lines.push(style.dim(`  ${input.hint}`));
  if (input.type === 'external_select' || input.type === 'multi_external_select') {
    lines.push(
      style.dim('    type-ahead: the bot suggests options as you type; give :submit what you would type'),
    );
  }
  if (error) lines.push(style.bad(`  ⚠ ${error}`));
  return lines;
}

export function renderView(view: ViewLike, options: RenderViewOptions): Rendered {
  const ctx = createRenderContext(options);
  const { style } = ctx;
  const modal = view.type === 'modal';
  const lines: string[] = [];
  const title = plainOf(view.title);
  lines.push(style.heading(modal ? `Modal: ${title || '(untitled)'}` : 'App Home'));
  const all = formInputs(view.blocks);
  const names = fieldNames(all);
  const inputs = new Map(all.map((i) => [i.blockId, i]));
  for (const raw of view.blocks) {
    const block = rec(raw);
    if (!block) continue;
    const input = block['type'] === 'input' ? inputs.get(str(block['block_id']) ?? '') : undefined;
    if (!input) {
      renderBlocksInto([block], ctx, lines);
      continue;
    }
    lines.push('', ...inputLines(input, names.get(input)!, ctx, options.errors?.[input.blockId]));
  }
  for (const [blockId, message] of Object.entries(options.errors ?? {})) {
    if (!inputs.has(blockId)) lines.push(style.bad(`⚠ ${blockId}: ${message}`));
  }
  if (modal) {
    const buttons = [view.submit && `[${plainOf(view.submit)}]`, `[${plainOf(view.close) || 'Cancel'}]`];
    lines.push('', buttons.filter(Boolean).join('  '));
    if (all.length > 0) {
      const example = all.map((i) => fieldKey(names.get(i)!)).slice(0, 2);
      lines.push(
        style.dim(
          `Fill it in with :submit ${example.map((n) => `${n}=…`).join(' ')}: each field by the start of its label, fields left out keep what they show`,
        ),
      );
    }
  }
  return { lines, clickables: ctx.clickables };
}
