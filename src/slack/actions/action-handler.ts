/**
 * The contract for buttons, selects and overflow menus whose action_id starts with
 * `vis:`. The router acks, finds the handler with the longest matching prefix
 * (`vis:open:brand` handles `vis:open:brand` and `vis:open:brand:…`) and runs it.
 */
import type { WebClient } from '@slack/web-api';
import type { Brand } from '../../api/schemas/index.js';
import type { Reply } from '../../messages/reply.js';
import type { SlackDeps } from '../kit/slack-deps.js';

export interface ActionInfo {
  actionId: string;
  /** A button's value (our buttons carry JSON such as {"brandId": "…"}). */
  value: string | undefined;
  blockId: string | undefined;
  /** The chosen option's value, for selects and overflow menus. */
  selectedOption: string | undefined;
  /** The person picked in a users_select. */
  selectedUser?: string | undefined;
}

export interface ActionContext {
  deps: SlackDeps;
  userId: string;
  /** The channel of the message clicked; undefined for App Home and modal buttons. */
  channelId: string | undefined;
  teamId: string | undefined;
  action: ActionInfo;
  /**
   * Replies to the message's response_url (ephemeral; `replaceOriginal: true` edits the
   * message clicked). Without a response_url (App Home, modals) the reply goes to the
   * user as a direct message from the app.
   */
  respond(reply: Reply): Promise<void>;
  client: WebClient;
  triggerId: string | undefined;
  /** The whole interaction payload, for what the fields above leave out (view state, message). */
  body: unknown;
  resolveBrand(token?: string): Promise<Brand>;
  requireWriter(action: string): Promise<void>;
}

export interface ActionHandler {
  prefix: string;
  run(ctx: ActionContext): Promise<void>;
}
