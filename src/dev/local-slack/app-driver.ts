/**
 * Drives a Bolt app the way Slack does: signed HTTP requests carrying slash commands, block
 * actions, options requests of type-ahead selects, view submissions and events, shaped like Slack's payloads
 * (https://docs.slack.dev/interactivity/slash-commands, /reference/interaction-payloads).
 * Slash commands and interactions are `application/x-www-form-urlencoded` exactly (Bolt's
 * HTTPReceiver compares the header verbatim); events are JSON.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { applyViewResponseAction } from './apply-view-response-action.js';
import { buildAction } from './build-action.js';
import { findBlockElement } from './find-block-element.js';
import type { HostedResponseUrls } from './hosted-response-urls.js';
import { messageJson } from './message-json.js';
import { viewJson } from './methods/views-methods.js';
import { signSlackRequest } from './sign-request.js';
import { storeAckReply } from './store-ack-reply.js';
import type {
  AppResponse,
  BlockActionOptions,
  BlockSuggestionOptions,
  FunctionExecution,
  FunctionExecutionOptions,
  FunctionParameter,
  RedeliveryOptions,
  SignedPostOptions,
  SlashCommandOptions,
  StoredMessage,
  StoredView,
  SuggestedOption,
  ViewSubmissionOptions,
} from './types.js';
import { DEFAULT_CHANNEL, DEFAULT_USER, type Workspace } from './workspace.js';

const FORM = 'application/x-www-form-urlencoded';

/** The options of an options response, option groups flattened; none when it is not one. */
function suggestedOptions(body: string): SuggestedOption[] {
  let json: { options?: unknown; option_groups?: Array<{ options?: unknown }> };
  try {
    json = JSON.parse(body) as typeof json;
  } catch {
    return [];
  }
  const lists = [json.options, ...(json.option_groups ?? []).map((g) => g.options)];
  return lists.flatMap((l) => (Array.isArray(l) ? (l as SuggestedOption[]) : []));
}

interface AppDriverDeps {
  ws: Workspace;
  responseUrls: HostedResponseUrls;
  signingSecret: string;
  /** The time signatures carry (see LocalSlackOptions.signingClock). */
  signingClock: Clock;
  /** Origin of the local Slack, e.g. `http://127.0.0.1:4321`. */
  origin: () => string;
}

export class AppDriver {
  /** The legacy verification token Slack still puts in payloads. */
  readonly verificationToken = randomBytes(12).toString('hex');

  #last: { body: string; contentType: string } | undefined;

  constructor(private readonly deps: AppDriverDeps) {}

  /** Signs at `timestampSec`, default the signing clock's now (the wall clock unless a test moves the app's). */
  sign(
    body: string,
    timestampSec = Math.floor(this.deps.signingClock.now() / 1000),
  ): { signature: string; timestamp: string } {
    return signSlackRequest(this.deps.signingSecret, body, timestampSec);
  }

  async slashCommand(
    appUrl: string,
    o: SlashCommandOptions,
  ): Promise<AppResponse & { responseUrlId: string; ackMs: number }> {
    const { ws, responseUrls } = this.deps;
    const userId = o.userId ?? DEFAULT_USER.id;
    const channelId = o.channelId ?? DEFAULT_CHANNEL.id;
    const url = responseUrls.create({ channelId, userId, originalTs: undefined });
    const form = new URLSearchParams({
      token: this.verificationToken,
      team_id: ws.identity.teamId,
      team_domain: ws.identity.teamDomain,
      channel_id: channelId,
      channel_name: this.channelName(channelId),
      user_id: userId,
      user_name: this.userName(userId),
      command: o.command ?? '/visibility',
      text: o.text,
      api_app_id: ws.identity.appId,
      is_enterprise_install: 'false',
      response_url: this.responseUrl(url.id),
      trigger_id: ws.issueTrigger(o.triggerId),
    });
    const res = await this.post(appUrl, form.toString(), FORM);
    if (res.status === 200) storeAckReply(ws, res.body, channelId, userId);
    return { status: res.status, body: res.body, responseUrlId: url.id, ackMs: res.ms };
  }

  async blockAction(appUrl: string, o: BlockActionOptions): Promise<AppResponse & { responseUrlId: string }> {
    const { ws, responseUrls } = this.deps;
    const userId = o.userId ?? DEFAULT_USER.id;
    const container = o.container ?? (o.viewId ? 'view' : 'message');
    const base = this.interactionBase('block_actions', userId, o.triggerId);
    let payload: Record<string, unknown>;
    let responseUrlId = '';
    let blocks: readonly unknown[] | undefined;
    if (container === 'view') {
      const view = this.requireView(o.viewId);
      blocks = view.blocks;
      payload = { ...base, container: { type: 'view', view_id: view.id }, view: viewJson(view) };
    } else {
      const message = this.clickedMessage(o, userId);
      const channelId = message?.channel ?? o.channelId ?? DEFAULT_CHANNEL.id;
      const messageTs = message?.ts ?? o.messageTs ?? ws.nextTs();
      const isEphemeral = message?.ephemeralTo !== undefined;
      blocks = message?.blocks;
      let url = o.responseUrlId ? responseUrls.get(o.responseUrlId) : undefined;
      if (o.responseUrlId && !url) throw new Error(`local Slack: no hosted response_url ${o.responseUrlId}`);
      if (url) url.originalTs = messageTs;
      else url = responseUrls.create({ channelId, userId, originalTs: messageTs });
      responseUrlId = url.id;
      payload = {
        ...base,
        container: {
          type: 'message',
          message_ts: messageTs,
          channel_id: channelId,
          is_ephemeral: isEphemeral,
        },
        channel: { id: channelId, name: this.channelName(channelId) },
        // Slack sends no `message` for ephemeral messages: the app cannot chat.update them.
        ...(message && !isEphemeral ? { message: messageJson(message, ws.identity, true) } : {}),
        state: { values: {} },
        response_url: this.responseUrl(url.id),
      };
    }
    payload['actions'] = [buildAction(ws, o, blocks, container)];
    const res = await this.post(
      appUrl,
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      FORM,
    );
    return { status: res.status, body: res.body, responseUrlId };
  }

  async viewSubmission(appUrl: string, o: ViewSubmissionOptions): Promise<AppResponse & { json: unknown }> {
    const { ws } = this.deps;
    const userId = o.userId ?? DEFAULT_USER.id;
    const stored = ws.views.get(o.viewId);
    const view = {
      ...(stored ? viewJson(stored) : this.syntheticView(o.viewId)),
      callback_id: o.callbackId,
      private_metadata: o.privateMetadata ?? stored?.private_metadata ?? '',
      state: { values: o.values },
    };
    const payload = {
      ...this.interactionBase('view_submission', userId, undefined),
      view,
      response_urls: [],
    };
    const res = await this.post(
      appUrl,
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      FORM,
    );
    let json: unknown;
    try {
      json = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      json = undefined;
    }
    if (stored && res.status === 200) applyViewResponseAction(ws, stored, o.values, json);
    return { status: res.status, body: res.body, json };
  }

  /**
   * A type-ahead select asking for options, shaped like Slack's block_suggestion
   * (https://docs.slack.dev/reference/interaction-payloads/block_suggestion-payload). The
   * select must be rendered where it is said to be, as for a click; the app answers with
   * `{options}` (or `{option_groups}`) in the HTTP response itself.
   */
  async blockSuggestion(
    appUrl: string,
    o: BlockSuggestionOptions,
  ): Promise<AppResponse & { options: SuggestedOption[] }> {
    const { ws } = this.deps;
    const userId = o.userId ?? DEFAULT_USER.id;
    const { trigger_id: _noTrigger, ...base } = this.interactionBase('block_suggestion', userId, undefined);
    let blocks: readonly unknown[] | undefined;
    let where: Record<string, unknown>;
    if (o.viewId) {
      const view = this.requireView(o.viewId);
      blocks = view.blocks;
      where = { container: { type: 'view', view_id: view.id }, view: viewJson(view) };
    } else {
      const message = this.clickedMessage(o, userId);
      if (!message) throw new Error('local Slack: no message to type into');
      blocks = message.blocks;
      where = {
        container: {
          type: 'message',
          message_ts: message.ts,
          channel_id: message.channel,
          is_ephemeral: message.ephemeralTo !== undefined,
        },
        channel: { id: message.channel, name: this.channelName(message.channel) },
      };
    }
    const found = findBlockElement(blocks, o.actionId);
    const type = found?.element['type'];
    if (type !== 'external_select' && type !== 'multi_external_select') {
      throw new Error(`local Slack: no external select with action_id "${o.actionId}" to type into`);
    }
    const payload = {
      ...base,
      ...where,
      action_id: o.actionId,
      block_id: found?.blockId ?? ws.nextId('b'),
      value: o.value,
    };
    const res = await this.post(
      appUrl,
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      FORM,
    );
    return { status: res.status, body: res.body, options: suggestedOptions(res.body) };
  }

  /** A custom step's run, as Workflow Builder starts it (see LocalSlack.executeFunction). */
  async executeFunction(
    appUrl: string,
    o: FunctionExecutionOptions,
  ): Promise<AppResponse & { execution: FunctionExecution }> {
    const { ws } = this.deps;
    const inputs = o.inputs ?? {};
    const execution = ws.functions.start(o.callbackId, inputs, ws.now());
    const definition = ws.functions.definitions?.[o.callbackId];
    const params = (p: Record<string, FunctionParameter> | undefined) =>
      Object.entries(p ?? {}).map(([name, param]) => ({ name, ...param }));
    const res = await this.event(appUrl, {
      type: 'function_executed',
      function: {
        id: `Fn0${o.callbackId
          .toUpperCase()
          .replace(/[^A-Z0-9]/g, '')
          .slice(0, 12)}`,
        callback_id: o.callbackId,
        title: definition?.title ?? o.callbackId,
        description: definition?.description ?? '',
        type: 'app',
        input_parameters: params(definition?.input_parameters),
        output_parameters: params(definition?.output_parameters),
        app_id: ws.identity.appId,
        date_created: Math.floor(execution.startedAt / 1000),
        date_updated: Math.floor(execution.startedAt / 1000),
        date_deleted: 0,
      },
      inputs,
      function_execution_id: execution.id,
      workflow_execution_id: execution.workflowExecutionId,
      bot_access_token: execution.botAccessToken,
    });
    return { ...res, execution };
  }

  async event(appUrl: string, event: Record<string, unknown>): Promise<AppResponse> {
    const { ws } = this.deps;
    if (typeof event['type'] !== 'string') throw new Error('local Slack: an event needs a `type`');
    const ts = ws.nextTs();
    const envelope = {
      token: this.verificationToken,
      team_id: ws.identity.teamId,
      api_app_id: ws.identity.appId,
      event: { event_ts: ts, ...event },
      type: 'event_callback',
      event_id: ws.nextId('Ev'),
      event_time: Math.floor(Number(ts)),
      authorizations: [
        {
          enterprise_id: null,
          team_id: ws.identity.teamId,
          user_id: ws.identity.botUserId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
    };
    const res = await this.post(appUrl, JSON.stringify(envelope), 'application/json');
    return { status: res.status, body: res.body };
  }

  async redeliverLast(appUrl: string, o: RedeliveryOptions = {}): Promise<AppResponse> {
    if (!this.#last) throw new Error('local Slack: nothing was sent yet, so nothing to redeliver');
    const res = await this.post(appUrl, this.#last.body, this.#last.contentType, {
      'x-slack-retry-num': String(o.retryNum ?? 1),
      'x-slack-retry-reason': o.retryReason ?? 'http_timeout',
    });
    return { status: res.status, body: res.body };
  }

  /** The last request sent to the app, as sent (for replay and forgery tests). */
  lastRequest(): { body: string; contentType: string } | undefined {
    return this.#last && { ...this.#last };
  }

  async postSigned(appUrl: string, body: string, o: SignedPostOptions = {}): Promise<AppResponse> {
    const res = await this.post(appUrl, body, o.contentType ?? FORM, o.headers, o.timestampSec);
    return { status: res.status, body: res.body };
  }

  responseUrl(id: string): string {
    return `${this.deps.origin()}/response/${id}`;
  }

  private async post(
    appUrl: string,
    body: string,
    contentType: string,
    extraHeaders: Record<string, string> = {},
    timestampSec?: number,
  ) {
    this.#last = { body, contentType };
    const { signature, timestamp } = this.sign(body, timestampSec);
    const started = performance.now();
    const res = await fetch(appUrl, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'x-slack-signature': signature,
        'x-slack-request-timestamp': timestamp,
        'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
        ...extraHeaders,
      },
      body,
    });
    const text = await res.text();
    return { status: res.status, body: text, ms: performance.now() - started };
  }

  private interactionBase(
    type: string,
    userId: string,
    triggerId: string | undefined,
  ): Record<string, unknown> {
    const { ws } = this.deps;
    return {
      type,
      user: {
        id: userId,
        username: this.userName(userId),
        name: this.userName(userId),
        team_id: ws.identity.teamId,
      },
      api_app_id: ws.identity.appId,
      token: this.verificationToken,
      trigger_id: ws.issueTrigger(triggerId),
      team: { id: ws.identity.teamId, domain: ws.identity.teamDomain },
      enterprise: null,
      is_enterprise_install: false,
    };
  }

  /** The message the user clicks on: named, the last reply on the response_url, or the last one they saw. */
  private clickedMessage(o: BlockActionOptions, userId: string): StoredMessage | undefined {
    const { ws, responseUrls } = this.deps;
    if (o.messageTs) return ws.findAnyMessage(o.messageTs, o.channelId) ?? ws.findAnyMessage(o.messageTs);
    const lastReply = o.responseUrlId ? responseUrls.get(o.responseUrlId)?.lastReplyTs : undefined;
    if (lastReply) return ws.findAnyMessage(lastReply);
    const channelId = o.channelId ?? DEFAULT_CHANNEL.id;
    return ws.messages
      .filter((m) => m.channel === channelId && (m.ephemeralTo === undefined || m.ephemeralTo === userId))
      .at(-1);
  }

  private requireView(viewId: string | undefined): StoredView {
    const view = viewId ? this.deps.ws.views.get(viewId) : undefined;
    if (!view)
      throw new Error(`local Slack: no view ${viewId ?? '(viewId missing)'} was opened or published`);
    return view;
  }

  private syntheticView(viewId: string): Record<string, unknown> {
    const { ws } = this.deps;
    return {
      id: viewId,
      team_id: ws.identity.teamId,
      type: 'modal',
      blocks: [],
      title: { type: 'plain_text', text: 'Modal' },
      hash: `${Math.floor(Date.now() / 1000)}.local`,
      root_view_id: viewId,
      previous_view_id: null,
      app_id: ws.identity.appId,
      bot_id: ws.identity.botId,
      external_id: '',
    };
  }

  private channelName(id: string): string {
    const c = this.deps.ws.channels.get(id);
    if (c?.isIm) return 'directmessage';
    return c?.name ?? (id.startsWith('G') ? 'privategroup' : id.toLowerCase());
  }

  private userName(id: string): string {
    return this.deps.ws.users.get(id)?.name ?? id.toLowerCase();
  }
}
