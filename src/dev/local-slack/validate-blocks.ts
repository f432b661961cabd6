/**
 * Block Kit validation as Slack answers it: a list of messages in Slack's own wording
 * (`no more than 50 items allowed [json-pointer:/blocks]`, `must be less than 3001
 * characters [json-pointer:/blocks/0/text/text]`). Covers the limits docs/slack.md names and
 * the structural mistakes a builder is likely to make; it is not the full Block Kit schema.
 */
import { Collector, isObject } from './block-problems.js';
import { SLACK_LIMITS as L } from './slack-limits.js';
import { validateDataTable, validateDataVisualization } from './validate-native-blocks.js';

export type BlockSurface = 'message' | 'modal' | 'home';

export interface BlocksProblem {
  /** `invalid_blocks`, or `msg_blocks_too_long` when only the overall size is wrong. */
  error: 'invalid_blocks' | 'msg_blocks_too_long';
  messages: string[];
}

const BLOCK_TYPES = new Set([
  'actions',
  'context',
  'data_table',
  'data_visualization',
  'divider',
  'file',
  'header',
  'image',
  'input',
  'markdown',
  'rich_text',
  'section',
  'table',
  'video',
]);

const INTERACTIVE_TYPES = new Set([
  'button',
  'checkboxes',
  'datepicker',
  'datetimepicker',
  'timepicker',
  'overflow',
  'radio_buttons',
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'multi_static_select',
  'multi_external_select',
  'multi_users_select',
  'multi_conversations_select',
  'multi_channels_select',
  'plain_text_input',
  'email_text_input',
  'url_text_input',
  'number_input',
  'rich_text_input',
  'file_input',
  'workflow_button',
]);

function validateOption(c: Collector, option: unknown, pointer: string): void {
  if (!isObject(option)) {
    c.add('must provide an object', pointer);
    return;
  }
  c.text(option['text'], `${pointer}/text`, L.optionText);
  c.maxLength(option['value'], L.optionValue, `${pointer}/value`);
}

function validateElement(c: Collector, el: unknown, pointer: string, actionIds: Set<string>): void {
  if (!isObject(el)) {
    c.add('must provide an object', pointer);
    return;
  }
  const type = el['type'];
  if (typeof type !== 'string' || !INTERACTIVE_TYPES.has(type)) {
    c.add(`unsupported type: ${String(type)}`, `${pointer}/type`);
    return;
  }
  const actionId = el['action_id'];
  if (actionId !== undefined) {
    if (typeof actionId !== 'string') c.add('must provide a string', `${pointer}/action_id`);
    else {
      c.maxLength(actionId, L.actionId, `${pointer}/action_id`);
      if (actionIds.has(actionId)) c.add(`duplicate action_id: ${actionId}`, `${pointer}/action_id`);
      actionIds.add(actionId);
    }
  }
  if (el['placeholder'] !== undefined)
    c.text(el['placeholder'], `${pointer}/placeholder`, L.placeholderText, true);
  switch (type) {
    case 'button':
    case 'workflow_button':
      c.text(el['text'], `${pointer}/text`, L.buttonText, true);
      c.maxLength(el['value'], L.buttonValue, `${pointer}/value`);
      c.maxLength(el['url'], L.url, `${pointer}/url`);
      break;
    case 'overflow':
      c.maxItems(el['options'], L.overflowOptions, `${pointer}/options`);
      break;
    case 'static_select':
    case 'multi_static_select':
      c.maxItems(el['options'], L.selectOptions, `${pointer}/options`);
      break;
    default:
      break;
  }
  const options = el['options'];
  if (Array.isArray(options))
    for (const [i, o] of options.entries()) validateOption(c, o, `${pointer}/options/${i}`);
}

function validateContextElement(c: Collector, el: unknown, pointer: string): void {
  if (!isObject(el)) {
    c.add('must provide an object', pointer);
    return;
  }
  const type = el['type'];
  if (type === 'plain_text' || type === 'mrkdwn') c.text(el, pointer, L.sectionText);
  else if (type === 'image') c.maxLength(el['alt_text'], L.imageAltText, `${pointer}/alt_text`);
  else c.add(`unsupported type: ${String(type)}`, `${pointer}/type`);
}

/** What one message holds across its blocks, for the rules about the message as a whole. */
interface Tally {
  blockIds: Set<string>;
  charts: number;
  tableChars: number;
  /** Types this workspace refuses (the fault that exercises a fallback). */
  refused: ReadonlySet<string>;
}

/** A block_id, when given: a string, not too long, unique in the message. */
function checkBlockId(c: Collector, blockId: unknown, pointer: string, tally: Tally): void {
  if (blockId === undefined) return;
  if (typeof blockId !== 'string') {
    c.add('must provide a string', `${pointer}/block_id`);
    return;
  }
  c.maxLength(blockId, L.blockId, `${pointer}/block_id`);
  if (tally.blockIds.has(blockId)) c.add(`duplicate block_id: ${blockId}`, `${pointer}/block_id`);
  tally.blockIds.add(blockId);
}

/** A section: text or fields (each within its limit), and an accessory checked as an element. */
function validateSection(
  c: Collector,
  block: Record<string, unknown>,
  pointer: string,
  actionIds: Set<string>,
): void {
  const { text, fields, accessory } = block;
  if (text === undefined && fields === undefined) c.add('must provide text or fields', pointer);
  if (text !== undefined) c.text(text, `${pointer}/text`, L.sectionText);
  if (fields !== undefined) {
    if (!Array.isArray(fields)) c.add('must provide an array', `${pointer}/fields`);
    else {
      c.maxItems(fields, L.sectionFields, `${pointer}/fields`);
      for (const [i, f] of fields.entries()) c.text(f, `${pointer}/fields/${i}`, L.sectionFieldText);
    }
  }
  if (accessory !== undefined && !(isObject(accessory) && accessory['type'] === 'image')) {
    validateElement(c, accessory, `${pointer}/accessory`, actionIds);
  }
}

function validateBlock(c: Collector, block: unknown, pointer: string, tally: Tally): void {
  if (!isObject(block)) {
    c.add('must provide an object', pointer);
    return;
  }
  const type = block['type'];
  if (typeof type !== 'string' || !BLOCK_TYPES.has(type) || tally.refused.has(type)) {
    c.add(`unsupported type: ${String(type)}`, `${pointer}/type`);
    return;
  }
  checkBlockId(c, block['block_id'], pointer, tally);
  const actionIds = new Set<string>();
  switch (type) {
    case 'section':
      validateSection(c, block, pointer, actionIds);
      break;
    case 'header':
      c.text(block['text'], `${pointer}/text`, L.headerText, true);
      break;
    case 'actions': {
      const elements = block['elements'];
      if (!Array.isArray(elements) || elements.length === 0) {
        c.add('must provide at least 1 item', `${pointer}/elements`);
        break;
      }
      c.maxItems(elements, L.actionsElements, `${pointer}/elements`);
      for (const [i, el] of elements.entries()) validateElement(c, el, `${pointer}/elements/${i}`, actionIds);
      break;
    }
    case 'context': {
      const elements = block['elements'];
      if (!Array.isArray(elements) || elements.length === 0) {
        c.add('must provide at least 1 item', `${pointer}/elements`);
        break;
      }
      c.maxItems(elements, L.contextElements, `${pointer}/elements`);
      for (const [i, el] of elements.entries()) validateContextElement(c, el, `${pointer}/elements/${i}`);
      break;
    }
    case 'input':
      c.text(block['label'], `${pointer}/label`, L.inputLabel, true);
      if (block['hint'] !== undefined) c.text(block['hint'], `${pointer}/hint`, L.inputHint, true);
      if (block['element'] === undefined) c.add('must provide an element', `${pointer}/element`);
      else validateElement(c, block['element'], `${pointer}/element`, actionIds);
      break;
    case 'image':
      c.maxLength(block['image_url'], L.url, `${pointer}/image_url`);
      c.maxLength(block['alt_text'], L.imageAltText, `${pointer}/alt_text`);
      break;
    case 'data_table':
      tally.tableChars += validateDataTable(c, block, pointer);
      break;
    case 'data_visualization':
      tally.charts += 1;
      validateDataVisualization(c, block, pointer);
      break;
    default:
      break;
  }
}

/** Sum of every `text` string under text objects: what Slack's size limit is about. */
function blockTextChars(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + blockTextChars(v), 0);
  if (!isObject(value)) return 0;
  let n = 0;
  for (const [k, v] of Object.entries(value)) {
    if (k === 'text' && typeof v === 'string') n += v.length;
    else n += blockTextChars(v);
  }
  return n;
}

interface ValidateBlocksOptions {
  /**
   * Block types to answer as unknown (`unsupported type: data_table`), as a workspace or
   * client that does not have them yet does: the switch that exercises a fallback.
   */
  refusedTypes?: ReadonlySet<string>;
}

/**
 * Validates `blocks` for a surface; undefined when Slack would accept them. The caller has
 * already checked that `blocks` is an array (else Slack says `invalid_blocks_format`).
 */
export function validateBlocks(
  blocks: readonly unknown[],
  surface: BlockSurface,
  pointer = '/blocks',
  options: ValidateBlocksOptions = {},
): BlocksProblem | undefined {
  const c = new Collector();
  c.maxItems(blocks, surface === 'message' ? L.messageBlocks : L.viewBlocks, pointer);
  const tally: Tally = {
    blockIds: new Set(),
    charts: 0,
    tableChars: 0,
    refused: options.refusedTypes ?? new Set(),
  };
  for (const [i, b] of blocks.entries()) validateBlock(c, b, `${pointer}/${i}`, tally);
  if (surface === 'message' && tally.charts > L.chartsPerMessage) {
    c.add(`no more than ${L.chartsPerMessage} data_visualization blocks allowed`, pointer);
  }
  if (surface === 'message' && tally.tableChars > L.tableChars) {
    c.add(`tables must hold no more than ${L.tableChars} characters in all`, pointer);
  }
  if (c.messages.length > 0) return { error: 'invalid_blocks', messages: c.messages };
  if (surface === 'message' && blockTextChars(blocks) > L.messageBlocksTextChars) {
    return {
      error: 'msg_blocks_too_long',
      messages: [
        `blocks carry more than ${L.messageBlocksTextChars} characters of text [json-pointer:${pointer}]`,
      ],
    };
  }
  return undefined;
}

/** Slack's `response_metadata.messages` form of the same list. */
export function toResponseMetadataMessages(messages: readonly string[]): string[] {
  return messages.map((m) => `[ERROR] ${m}`);
}
