/**
 * Independent check of the Slack limits docs/slack.md lists, for the property tests; the local
 * Slack's validator is applied as well, so both readings of the rules must pass.
 */
import { validateBlocks } from '../../../src/dev/local-slack/validate-blocks.js';

type Json = Record<string, unknown>;

export function limitProblems(message: { text: string; blocks: unknown[] }): string[] {
  const problems: string[] = [];
  const { blocks, text } = message;
  if (typeof text !== 'string' || text.trim() === '') problems.push('no fallback text');
  if (text.length > 4000) problems.push(`fallback text ${text.length} > 4000`);
  if (blocks.length > 50) problems.push(`${blocks.length} blocks > 50`);
  const size = JSON.stringify(blocks).length;
  if (size > 12_000) problems.push(`blocks JSON ${size} > 12000`);
  for (const [i, raw] of blocks.entries()) {
    const b = raw as Json;
    const t = b['text'] as Json | undefined;
    if (b['type'] === 'header' && String(t?.['text']).length > 150) problems.push(`header ${i} > 150`);
    if (b['type'] === 'section' && String(t?.['text']).length > 3000) problems.push(`section ${i} > 3000`);
    if (b['type'] === 'actions' && (b['elements'] as unknown[]).length > 25)
      problems.push(`actions ${i} > 25`);
    if (b['type'] === 'context' && (b['elements'] as unknown[]).length > 10)
      problems.push(`context ${i} > 10`);
    // Selects (the brand picker) have no label or value of their own to measure.
    const buttons = [
      ...(b['type'] === 'actions' ? (b['elements'] as Json[]) : []),
      ...(b['accessory'] ? [b['accessory'] as Json] : []),
    ].filter((e) => e['type'] === 'button');
    for (const btn of buttons) {
      if (btn['type'] === 'overflow') {
        const options = btn['options'] as Json[];
        if (options.length < 2 || options.length > 5)
          problems.push(`overflow ${i} has ${options.length} options`);
        for (const o of options) {
          if (String((o['text'] as Json)['text']).length > 75) problems.push(`option text ${i} > 75`);
          if (String(o['value']).length > 150) problems.push(`option value ${i} > 150`);
        }
        continue;
      }
      const label = String((btn['text'] as Json)['text']);
      if (label.length > 75) problems.push(`button "${label}" > 75`);
      if (String(btn['value'] ?? '').length > 2000) problems.push('button value > 2000');
      if (String(btn['action_id']).length > 255) problems.push('action_id > 255');
    }
  }
  const slack = validateBlocks(blocks, 'message');
  if (slack) problems.push(`${slack.error}: ${slack.messages.join('; ')}`);
  return problems;
}
