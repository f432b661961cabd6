/**
 * The contract for modal submissions, found by exact callback_id. `run` must answer
 * quickly: its result is the HTTP answer to Slack (validation errors shown under the
 * inputs, or the modal closed / updated), so slow API work belongs in `afterAck`, which
 * runs once Slack has its answer.
 */
import type { WebClient } from '@slack/web-api';
import type { View } from '../../messages/block-kit-types.js';
import type { SlackDeps } from '../kit/slack-deps.js';

export type SubmissionResult =
  /** Shown under the inputs: block_id → message. The modal stays open. */
  | { errors: Record<string, string> }
  /** Replace the modal's content. */
  | { update: View; afterAck?: () => Promise<void> }
  /** Close the modal (close: 'all' closes the whole stack). */
  | { close: true | 'all'; afterAck?: () => Promise<void> };

export interface SubmissionContext {
  deps: SlackDeps;
  userId: string;
  callbackId: string;
  /** `view.state.values`: block_id → action_id → element state. */
  values: Record<string, Record<string, unknown>>;
  privateMetadata: string;
  viewId: string;
  client: WebClient;
  body: unknown;
  requireWriter(action: string): Promise<void>;
}

export interface SubmissionHandler {
  callbackId: string;
  run(ctx: SubmissionContext): Promise<SubmissionResult>;
}
