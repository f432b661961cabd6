/**
 * A view payload (views.open/push/update/publish, `response_action: update|push`) checked
 * the way Slack checks it: https://docs.slack.dev/reference/views — modal title, submit and
 * close ≤ 24 characters, callback_id ≤ 255, private_metadata ≤ 3000, blocks ≤ 100
 * (`invalid_blocks`, as docs/slack.md expects the bot to be told).
 */
import { SLACK_LIMITS as L } from './slack-limits.js';
import type { ViewInput } from './types.js';
import { type BlockSurface, validateBlocks } from './validate-blocks.js';

type ViewCheck = { ok: true; view: ViewInput } | { ok: false; error: string; messages: string[] };

function plainTextProblem(value: unknown, max: number, pointer: string): string | undefined {
  if (typeof value !== 'object' || value === null) return `must provide an object [json-pointer:${pointer}]`;
  const { type, text } = value as Record<string, unknown>;
  if (type !== 'plain_text') return `must be plain_text [json-pointer:${pointer}/type]`;
  if (typeof text !== 'string' || text.length === 0)
    return `must be more than 0 characters [json-pointer:${pointer}/text]`;
  if (text.length > max) return `must be less than ${max + 1} characters [json-pointer:${pointer}/text]`;
  return undefined;
}

export function readView(
  raw: unknown,
  allowed: readonly ViewInput['type'][],
  refusedTypes?: ReadonlySet<string>,
): ViewCheck {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      ok: false,
      error: 'invalid_arguments',
      messages: ['must provide an object [json-pointer:/view]'],
    };
  }
  const v = raw as Record<string, unknown>;
  const type = v['type'];
  if (type !== 'modal' && type !== 'home') {
    return {
      ok: false,
      error: 'invalid_arguments',
      messages: ['must be modal or home [json-pointer:/view/type]'],
    };
  }
  if (!allowed.includes(type)) {
    return {
      ok: false,
      error: 'invalid_arguments',
      messages: [`${type} views are not allowed here [json-pointer:/view/type]`],
    };
  }
  const messages: string[] = [];
  if (type === 'modal') {
    const titleProblem = plainTextProblem(v['title'], L.viewTitle, '/view/title');
    if (titleProblem) messages.push(titleProblem);
    for (const field of ['submit', 'close'] as const) {
      if (v[field] === undefined) continue;
      const problem = plainTextProblem(v[field], L.viewButtonText, `/view/${field}`);
      if (problem) messages.push(problem);
    }
  }
  const callbackId = typeof v['callback_id'] === 'string' ? v['callback_id'] : '';
  if (callbackId.length > L.viewCallbackId) {
    messages.push(`must be less than ${L.viewCallbackId + 1} characters [json-pointer:/view/callback_id]`);
  }
  const privateMetadata = typeof v['private_metadata'] === 'string' ? v['private_metadata'] : '';
  if (privateMetadata.length > L.viewPrivateMetadata) {
    messages.push(
      `must be less than ${L.viewPrivateMetadata + 1} characters [json-pointer:/view/private_metadata]`,
    );
  }
  if (!Array.isArray(v['blocks'])) messages.push('must provide an array [json-pointer:/view/blocks]');
  if (messages.length > 0) return { ok: false, error: 'invalid_arguments', messages };
  const blocks = v['blocks'] as unknown[];
  const problem = validateBlocks(
    blocks,
    type as BlockSurface,
    '/view/blocks',
    refusedTypes ? { refusedTypes } : {},
  );
  if (problem) return { ok: false, error: 'invalid_blocks', messages: problem.messages };
  return {
    ok: true,
    view: {
      type,
      callback_id: callbackId,
      private_metadata: privateMetadata,
      external_id: typeof v['external_id'] === 'string' ? v['external_id'] : '',
      title: v['title'],
      submit: v['submit'],
      close: v['close'],
      blocks,
    },
  };
}
