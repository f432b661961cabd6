/**
 * The checks Slack applies to a message's content, shared by chat.postMessage,
 * chat.postEphemeral, chat.update and hosted response_urls.
 * https://docs.slack.dev/reference/methods/chat.postMessage (errors: no_text, msg_too_long,
 * invalid_blocks, invalid_blocks_format, msg_blocks_too_long, invalid_metadata_format)
 */
import { SLACK_LIMITS } from './slack-limits.js';
import type { MessageMetadata } from './types.js';
import { validateBlocks } from './validate-blocks.js';

interface MessageContent {
  text: string | undefined;
  blocks: unknown[] | undefined;
}

interface ContentProblem {
  error: string;
  messages: string[];
}

type ContentCheck = { ok: true; content: MessageContent } | { ok: false; problem: ContentProblem };

interface ContentCheckOptions {
  requireContent?: boolean;
  /** Block types the workspace refuses (FaultPlan.refuseBlocks). */
  refusedTypes?: ReadonlySet<string>;
}

export function checkMessageContent(
  args: Record<string, unknown>,
  { requireContent = true, refusedTypes }: ContentCheckOptions = {},
): ContentCheck {
  const rawText = args['text'];
  const text =
    typeof rawText === 'string' ? rawText : typeof rawText === 'number' ? String(rawText) : undefined;
  const rawBlocks = args['blocks'];
  if (rawBlocks !== undefined && !Array.isArray(rawBlocks)) {
    return {
      ok: false,
      problem: { error: 'invalid_blocks_format', messages: ['must provide an array [json-pointer:/blocks]'] },
    };
  }
  const blocks = rawBlocks as unknown[] | undefined;
  if (text !== undefined && text.length > SLACK_LIMITS.messageTextChars) {
    return { ok: false, problem: { error: 'msg_too_long', messages: [] } };
  }
  const hasAttachments = Array.isArray(args['attachments']) && args['attachments'].length > 0;
  if (requireContent && !text && (blocks === undefined || blocks.length === 0) && !hasAttachments) {
    return { ok: false, problem: { error: 'no_text', messages: [] } };
  }
  if (blocks !== undefined) {
    const problem = validateBlocks(blocks, 'message', '/blocks', refusedTypes ? { refusedTypes } : {});
    if (problem) return { ok: false, problem };
  }
  return { ok: true, content: { text, blocks } };
}

/** `metadata` as Slack accepts it; `invalid` when present but malformed. */
export function readMetadata(value: unknown): MessageMetadata | undefined | 'invalid' {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) return 'invalid';
  const { event_type, event_payload } = value as Record<string, unknown>;
  if (typeof event_type !== 'string' || event_type.length === 0) return 'invalid';
  if (typeof event_payload !== 'object' || event_payload === null || Array.isArray(event_payload))
    return 'invalid';
  return { event_type, event_payload: event_payload as Record<string, unknown> };
}
