/**
 * Public shapes of the local Slack: a real HTTP fake of the Web API, hosted response_urls,
 * and a driver that sends signed requests to a Bolt app. Field names follow Slack's wire
 * format (snake_case) wherever the value is something Slack itself would send or store.
 */
import type { Clock } from '../../clock.js';

export interface LocalSlackOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Request signing secret; generated when omitted. */
  signingSecret?: string;
  /** The only bot token the Web API accepts; default `xoxb-local-…` (generated). */
  botToken?: string;
  /** Time source for message ts, `at` stamps, response_url and trigger_id expiry. */
  clock?: Clock;
  /**
   * The time the driver's request signatures carry (`X-Slack-Request-Timestamp`); default
   * the wall clock. An app refuses a timestamp 5 minutes away from its own clock, so a test
   * that moves the app's clock passes the same clock here.
   */
  signingClock?: Clock;
  teamId?: string;
  botUserId?: string;
  /** Each shared file is also written into this folder (the demo: data/charts/). */
  filesDirectory?: string;
  /** Told about each file shared into a channel (the demo prints where it was written). */
  onFile?: (file: StoredFile) => void;
  /**
   * The app's custom steps as its manifest declares them (`functions`): runs of other
   * callback_ids are refused, and functions.completeSuccess checks the outputs against
   * them as Slack does. Unset: any callback_id runs and outputs are taken as they come.
   */
  functions?: FunctionDefinitions;
}

/** One input or output of a custom step, as the manifest declares it. */
export interface FunctionParameter {
  type: string;
  title?: string;
  description?: string;
  is_required?: boolean;
  items?: { type: string };
}

/** callback_id → the function's manifest entry. */
export type FunctionDefinitions = Readonly<
  Record<
    string,
    {
      title: string;
      description?: string;
      input_parameters: Readonly<Record<string, FunctionParameter>>;
      output_parameters: Readonly<Record<string, FunctionParameter>>;
    }
  >
>;

/** One Workflow Builder run of a custom step, from its function_executed event to its end. */
export interface FunctionExecution {
  /** `function_execution_id` (Fx…). */
  id: string;
  workflowExecutionId: string;
  callbackId: string;
  inputs: Record<string, unknown>;
  /** The run's own token, accepted by the Web API until the run ends. */
  botAccessToken: string;
  /** `running` until functions.completeSuccess (`completed`) or functions.completeError (`failed`). */
  state: 'running' | 'completed' | 'failed';
  outputs: Record<string, unknown> | undefined;
  /** The sentence functions.completeError passed on for the person. */
  error: string | undefined;
  startedAt: number;
  completedAt: number | undefined;
}

export interface FunctionExecutionOptions {
  /** The function's callback_id. */
  callbackId: string;
  inputs?: Record<string, unknown>;
}

/** A file shared with files.completeUploadExternal: what a person would see in Slack. */
export interface StoredFile {
  /** F-prefixed file id. */
  id: string;
  /** The file name the upload announced. */
  name: string;
  title: string;
  /** What a screen reader reads instead of the image. */
  altText: string | undefined;
  bytes: Buffer;
  /** From the PNG's IHDR. */
  width: number;
  height: number;
  /** Where it was shared; undefined when completed without a channel (private to the bot). */
  channel: string | undefined;
  thread_ts: string | undefined;
  /** ts of the message that shares it. */
  messageTs: string | undefined;
  /** Where it was written when the local Slack has a files directory. */
  path: string | undefined;
  at: number;
}

/** A file as a message shows it. */
export interface MessageFile {
  id: string;
  name: string;
  title: string;
}

/** One Web API call as it crossed the wire (token kept apart from the arguments). */
export interface RecordedCall {
  at: number;
  /** e.g. `chat.postMessage` */
  method: string;
  /** Parsed arguments; JSON strings inside form bodies (blocks, metadata, view) are parsed. */
  args: Record<string, unknown>;
  token: string | undefined;
  /** The JSON body answered (for a dropped connection: what would have been answered). */
  response: Record<string, unknown>;
  /** HTTP status answered: 200, or 429 when rate limited. */
  status: number;
  /** True when the connection was dropped after the call took effect (failAfterAccept). */
  dropped: boolean;
  /** True when the call took effect and was never answered (stallAfterAccept). */
  stalled: boolean;
}

/** Slack message metadata: https://docs.slack.dev/messaging/message-metadata */
export interface MessageMetadata {
  event_type: string;
  event_payload: Record<string, unknown>;
}

export interface StoredMessage {
  channel: string;
  ts: string;
  text: string | undefined;
  blocks: unknown[] | undefined;
  metadata: MessageMetadata | undefined;
  thread_ts: string | undefined;
  /** A thread reply also shown in the channel (only such replies appear in conversations.history). */
  reply_broadcast: boolean;
  /** The bot's user id: every stored message was posted by the app. */
  user: string;
  bot_id: string;
  /** Set for messages only one user sees (chat.postEphemeral, ephemeral response_url replies). */
  ephemeralTo: string | undefined;
  /** How the message got here (`ack`: the body of a slash command's HTTP response). */
  via: 'chat.postMessage' | 'chat.postEphemeral' | 'response_url' | 'ack' | 'files.completeUploadExternal';
  /** The hosted response_url that created it, when `via` is `response_url`. */
  responseUrlId: string | undefined;
  /** ts of the last edit (chat.update or replace_original). */
  edited: string | undefined;
  /** Files the message shares (files.completeUploadExternal). */
  files?: MessageFile[];
}

/** One POST to a hosted response_url, accepted or not. */
export interface ResponseUrlPost {
  at: number;
  responseUrlId: string;
  /** The parsed JSON body (the raw text when it was not JSON). */
  body: unknown;
  /** HTTP status answered: 200 when accepted. */
  status: number;
  /** Slack's error string when rejected (`used_url`, `expired_url`, `invalid_blocks`, …). */
  error: string | undefined;
  /** Validation messages behind an `invalid_blocks`. */
  errors: string[];
  /** ts of the message posted, replaced or deleted by an accepted post. */
  messageTs: string | undefined;
}

/** A view payload as views.open/push/update/publish take it (after read-view.ts checked it). */
export interface ViewInput {
  type: 'modal' | 'home';
  callback_id: string;
  private_metadata: string;
  external_id: string;
  title: unknown;
  submit: unknown;
  close: unknown;
  blocks: unknown[];
}

export interface StoredView extends ViewInput {
  id: string;
  team_id: string;
  state: { values: Record<string, Record<string, unknown>> };
  hash: string;
  root_view_id: string;
  previous_view_id: string | null;
  app_id: string;
  bot_id: string;
  /** Home views: whose App Home this is. Modals: who opened it. */
  user_id: string | undefined;
  /** Modals closed by a submission (or `clear`) stay listed for inspection. */
  closed: boolean;
}

export interface ChannelInit {
  /** C-prefixed (G for private) channel id. */
  id: string;
  name: string;
  isMember?: boolean;
  isArchived?: boolean;
  isPrivate?: boolean;
}

export interface ChannelState {
  exists?: boolean;
  isMember?: boolean;
  isArchived?: boolean;
}

export interface UserInit {
  id: string;
  name: string;
  isRestricted?: boolean;
  isUltraRestricted?: boolean;
  /** IANA zone, e.g. `Europe/Paris`. */
  tz?: string;
  isAdmin?: boolean;
}

export interface SlashCommandOptions {
  text: string;
  userId?: string;
  channelId?: string;
  /** Default `/visibility`. */
  command?: string;
  triggerId?: string;
}

export interface BlockActionOptions {
  actionId: string;
  value?: string;
  blockId?: string;
  userId?: string;
  channelId?: string;
  /** The message the button is on; default: the last reply on `responseUrlId`, else the channel's last message. */
  messageTs?: string;
  /** Reuse a hosted response_url (e.g. the command's) instead of issuing a fresh one. */
  responseUrlId?: string;
  /** `view`: an action in a modal or Home tab this local Slack holds (opened, pushed or published). */
  container?: 'message' | 'view';
  viewId?: string;
  /** Value of the chosen option (selects, overflow menus). */
  selectedOption?: string;
  /** The person picked in a users_select. */
  selectedUser?: string;
  triggerId?: string;
}

/** A type-ahead select asking the app for options (a block_suggestion request). */
export interface BlockSuggestionOptions {
  actionId: string;
  /** What the person has typed so far ('' when the menu just opened). */
  value: string;
  userId?: string;
  /** The select is in this modal or Home tab; otherwise in a message. */
  viewId?: string;
  /** The message the select is on (default: the last reply on `responseUrlId`, else the channel's last message). */
  messageTs?: string;
  responseUrlId?: string;
  channelId?: string;
}

export interface SuggestedOption {
  text: { type: string; text: string };
  value: string;
}

export interface ViewSubmissionOptions {
  callbackId: string;
  viewId: string;
  privateMetadata?: string;
  /** `state.values`: block_id → action_id → element state. */
  values: Record<string, Record<string, unknown>>;
  userId?: string;
}

/** Something that reached the local Slack from the app: a Web API call or a response_url post. */
export type SlackActivity =
  | { kind: 'call'; call: RecordedCall }
  | { kind: 'response'; post: ResponseUrlPost };

export interface AppResponse {
  status: number;
  body: string;
}

export interface LocalSlack {
  /** Base Web API URL ending in `/api/`: pass as SLACK_API_URL / WebClient `slackApiUrl`. */
  url: string;
  signingSecret: string;
  botToken: string;
  teamId: string;
  botUserId: string;
  botId: string;
  /** Defaults the driver uses when a call names no user / channel. */
  defaultUserId: string;
  defaultChannelId: string;

  calls: RecordedCall[];
  callsTo(method: string): RecordedCall[];
  /** What a channel shows, oldest first: posted and updated, deleted ones removed, no ephemerals. */
  messages(channel: string): StoredMessage[];
  /** What only `userId` sees (chat.postEphemeral and ephemeral response_url replies), oldest first. */
  ephemeralMessages(userId: string): StoredMessage[];
  responses: ResponseUrlPost[];
  responsesFor(responseUrlId: string): ResponseUrlPost[];
  /** Every view, oldest first: modals (closed ones included) and Home views. */
  views(): StoredView[];
  /** A view by id (modals, including closed ones, and Home views). */
  view(viewId: string): StoredView | undefined;
  /** The user's published App Home view. */
  homeView(userId: string): StoredView | undefined;
  /** Files shared into channels and threads, oldest first. */
  files(channel?: string): StoredFile[];
  /**
   * Calls `listener` right after each Web API call or response_url post is recorded (and
   * has taken effect), so a viewer can show it as it happens. Returns the unsubscribe.
   * A listener that throws is ignored: observing never changes what Slack answers.
   */
  onActivity(listener: (activity: SlackActivity) => void): () => void;
  /** A user's name and time zone, as users.info tells them (for renderers of `<@U…>`). */
  userInfo(userId: string): { name: string; tz: string } | undefined;
  /** A channel's name, as conversations.info tells it (for renderers of `<#C…>`). */
  channelName(channelId: string): string | undefined;
  /** Polls `predicate` every few ms until it returns a truthy value; rejects after `timeoutMs` (default 2000). */
  waitFor<T>(predicate: () => T | undefined | false, timeoutMs?: number): Promise<T>;

  addChannel(c: ChannelInit): void;
  setChannelState(id: string, s: ChannelState): void;
  addUser(u: UserInit): void;
  /** The next `count` calls to `method` (or `*`) answer HTTP 429 with Retry-After. */
  rateLimit(method: string, o: { count: number; retryAfterSec: number }): void;
  /** The next `count` (default 1) calls to `method` answer 200 `{ok:false,error}`. */
  failNext(method: string, error: string, count?: number): void;
  /** The next `count` (default 1) calls to `method` take effect, then the connection is dropped. */
  failAfterAccept(method: string, count?: number): void;
  /**
   * The next `count` (default 1) calls to `method` take effect and are never answered: the
   * response is held open until close(), so a test can kill the caller after Slack accepted.
   */
  stallAfterAccept(method: string, count?: number): void;
  /**
   * From now on, blocks of these types (default data_table and data_visualization) are
   * answered `invalid_blocks` wherever they are sent, as by a workspace that does not have
   * them yet: the switch that exercises a fallback. Until acceptBlocks() or reset().
   */
  refuseBlocks(types?: readonly string[]): void;
  /** Every block type is accepted again. */
  acceptBlocks(): void;
  /** Forgets calls, messages, views, responses and faults; channels and users return to the defaults. */
  reset(): void;

  slashCommand(
    appUrl: string,
    o: SlashCommandOptions,
  ): Promise<AppResponse & { responseUrlId: string; ackMs: number }>;
  blockAction(appUrl: string, o: BlockActionOptions): Promise<AppResponse & { responseUrlId: string }>;
  viewSubmission(appUrl: string, o: ViewSubmissionOptions): Promise<AppResponse & { json: unknown }>;
  /** Types into an external select: the signed block_suggestion and the options the app answered. */
  blockSuggestion(
    appUrl: string,
    o: BlockSuggestionOptions,
  ): Promise<AppResponse & { options: SuggestedOption[] }>;
  event(appUrl: string, event: Record<string, unknown>): Promise<AppResponse>;
  /**
   * Runs a custom step the way Workflow Builder does: a signed `function_executed` event
   * (HTTP, or through a Socket Mode relay like any event) with the run's inputs and token.
   * The run stays open until the app calls functions.completeSuccess or completeError.
   */
  executeFunction(
    appUrl: string,
    o: FunctionExecutionOptions,
  ): Promise<AppResponse & { execution: FunctionExecution }>;
  /** Every run started, oldest first, with how it ended. */
  functionExecutions(): FunctionExecution[];
  sign(body: string, timestampSec?: number): { signature: string; timestamp: string };
  /**
   * Sends the driver's last request again, byte for byte, the way Slack redelivers one it
   * thinks timed out: freshly signed, with `X-Slack-Retry-Num` and `X-Slack-Retry-Reason`.
   */
  redeliverLast(appUrl: string, o?: RedeliveryOptions): Promise<AppResponse>;
  /** The last request sent to the app, as sent: a test replays or forges it with postSigned. */
  lastRequest(): { body: string; contentType: string } | undefined;
  /** Any body, signed (at `timestampSec`, default now) and posted: for hostile-request tests. */
  postSigned(appUrl: string, body: string, o?: SignedPostOptions): Promise<AppResponse>;
  close(): Promise<void>;
}

export interface RedeliveryOptions {
  retryNum?: number;
  retryReason?: string;
}

export interface SignedPostOptions {
  contentType?: string;
  timestampSec?: number;
  headers?: Record<string, string>;
}
