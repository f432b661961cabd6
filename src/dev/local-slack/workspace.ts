/**
 * The state of the local workspace: channels, users, messages (channel and ephemeral),
 * views, issued trigger_ids. Pure bookkeeping; the Web API methods decide what is allowed.
 */
import type { Clock } from '../../clock.js';
import { FaultPlan } from './fault-plan.js';
import { FileStore } from './file-store.js';
import { FunctionExecutions } from './function-executions.js';
import { MessageTsIssuer } from './message-ts.js';
import { SLACK_LIMITS } from './slack-limits.js';
import type {
  ChannelInit,
  ChannelState,
  MessageMetadata,
  StoredMessage,
  StoredView,
  UserInit,
} from './types.js';

export interface ChannelRecord {
  id: string;
  name: string;
  exists: boolean;
  isMember: boolean;
  isArchived: boolean;
  isPrivate: boolean;
  isIm: boolean;
  created: number;
}

interface UserRecord {
  id: string;
  name: string;
  isRestricted: boolean;
  isUltraRestricted: boolean;
  tz: string;
  isAdmin: boolean;
  isBot: boolean;
}

export interface WorkspaceIdentity {
  teamId: string;
  teamDomain: string;
  teamName: string;
  botUserId: string;
  botId: string;
  botName: string;
  appId: string;
}

/** What a fresh (or reset) workspace holds, so the demo and tests work without setup. */
export const DEFAULT_CHANNEL: ChannelInit = { id: 'C0LOCALGEN', name: 'general', isMember: true };
export const DEFAULT_USER: UserInit = { id: 'U0LOCALUSR', name: 'local.user', tz: 'UTC', isAdmin: true };

interface NewMessage {
  channel: string;
  text: string | undefined;
  blocks: unknown[] | undefined;
  metadata: MessageMetadata | undefined;
  thread_ts: string | undefined;
  reply_broadcast: boolean;
  ephemeralTo: string | undefined;
  via: StoredMessage['via'];
  responseUrlId: string | undefined;
  files?: StoredMessage['files'];
}

export class Workspace {
  readonly channels = new Map<string, ChannelRecord>();
  readonly users = new Map<string, UserRecord>();
  /** Every live message in post order, channel and ephemeral alike. */
  readonly messages: StoredMessage[] = [];
  readonly views = new Map<string, StoredView>();
  readonly homeViewByUser = new Map<string, string>();
  readonly #triggers = new Map<string, number>();
  readonly #ts = new MessageTsIssuer();
  #seq = 0;

  constructor(
    readonly identity: WorkspaceIdentity,
    private readonly clock: Clock,
    readonly files: FileStore = new FileStore(),
    /** Faults queued by tests; content checks read its refused block types. */
    readonly faults: FaultPlan = new FaultPlan(),
    /** Runs of the app's custom steps. */
    readonly functions: FunctionExecutions = new FunctionExecutions(undefined),
  ) {
    this.seed();
  }

  /** The workspace's time (the local Slack's clock). */
  now(): number {
    return this.clock.now();
  }

  reset(): void {
    this.channels.clear();
    this.users.clear();
    this.messages.length = 0;
    this.views.clear();
    this.homeViewByUser.clear();
    this.#triggers.clear();
    this.files.reset();
    this.functions.reset();
    this.seed();
  }

  private seed(): void {
    this.addChannel(DEFAULT_CHANNEL);
    this.addUser(DEFAULT_USER);
    this.users.set(this.identity.botUserId, {
      id: this.identity.botUserId,
      name: this.identity.botName,
      isRestricted: false,
      isUltraRestricted: false,
      tz: 'UTC',
      isAdmin: false,
      isBot: true,
    });
  }

  /** A short unique suffix for generated ids (views, events, response_urls). */
  nextId(prefix: string): string {
    this.#seq += 1;
    return `${prefix}${this.#seq.toString(36).toUpperCase().padStart(8, '0')}`;
  }

  nextTs(): string {
    return this.#ts.next(this.clock.now());
  }

  addChannel(c: ChannelInit): void {
    if (!/^[CGD][A-Z0-9]+$/.test(c.id)) throw new Error(`channel id must look like Slack's (C…/G…): ${c.id}`);
    this.channels.set(c.id, {
      id: c.id,
      name: c.name,
      exists: true,
      isMember: c.isMember ?? true,
      isArchived: c.isArchived ?? false,
      isPrivate: c.isPrivate ?? c.id.startsWith('G'),
      isIm: c.id.startsWith('D'),
      created: Math.floor(this.clock.now() / 1000),
    });
  }

  setChannelState(id: string, s: ChannelState): void {
    let record = this.channels.get(id);
    if (!record) {
      this.addChannel({ id, name: id.toLowerCase() });
      record = this.channels.get(id)!;
    }
    if (s.exists !== undefined) record.exists = s.exists;
    if (s.isMember !== undefined) record.isMember = s.isMember;
    if (s.isArchived !== undefined) record.isArchived = s.isArchived;
  }

  addUser(u: UserInit): void {
    if (!/^[UW][A-Z0-9]+$/.test(u.id)) throw new Error(`user id must look like Slack's (U…/W…): ${u.id}`);
    const tz = u.tz ?? 'UTC';
    // Fails fast on a zone name Intl does not know, instead of at users.info time.
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    this.users.set(u.id, {
      id: u.id,
      name: u.name,
      isRestricted: u.isRestricted ?? false,
      isUltraRestricted: u.isUltraRestricted ?? false,
      tz,
      isAdmin: u.isAdmin ?? false,
      isBot: false,
    });
  }

  /** A channel that exists now (`exists: false` hides it as if deleted). */
  channel(id: string): ChannelRecord | undefined {
    const c = this.channels.get(id);
    return c?.exists ? c : undefined;
  }

  /**
   * What chat.postMessage's `channel` names: an id, a `#name`, or a user id (a DM with the
   * bot, opened on demand as Slack does).
   */
  resolveChannel(ref: string): ChannelRecord | undefined {
    if (ref.startsWith('#')) {
      const name = ref.slice(1);
      return [...this.channels.values()].find((c) => c.exists && c.name === name);
    }
    if (/^[UW]/.test(ref)) {
      const user = this.users.get(ref);
      if (!user || user.isBot) return undefined;
      const dmId = `D${ref.slice(1)}`;
      if (!this.channels.has(dmId)) this.addChannel({ id: dmId, name: ref, isMember: true });
      return this.channel(dmId);
    }
    return this.channel(ref);
  }

  addMessage(m: NewMessage): StoredMessage {
    const stored: StoredMessage = {
      ...m,
      ts: this.nextTs(),
      user: this.identity.botUserId,
      bot_id: this.identity.botId,
      edited: undefined,
    };
    this.messages.push(stored);
    return stored;
  }

  /** A channel message (not ephemeral) by channel and ts. */
  findMessage(channel: string, ts: string): StoredMessage | undefined {
    return this.messages.find((m) => m.channel === channel && m.ts === ts && m.ephemeralTo === undefined);
  }

  /** Any message by ts, ephemeral or not, optionally within a channel. */
  findAnyMessage(ts: string, channel?: string): StoredMessage | undefined {
    return this.messages.find((m) => m.ts === ts && (channel === undefined || m.channel === channel));
  }

  removeMessage(message: StoredMessage): void {
    const i = this.messages.indexOf(message);
    if (i >= 0) this.messages.splice(i, 1);
  }

  editMessage(
    message: StoredMessage,
    change: {
      text: string | undefined;
      blocks: unknown[] | undefined;
      metadata?: MessageMetadata | undefined;
    },
  ): void {
    message.text = change.text;
    message.blocks = change.blocks;
    if (change.metadata !== undefined) message.metadata = change.metadata;
    message.edited = this.nextTs();
  }

  channelMessages(channel: string): StoredMessage[] {
    return this.messages.filter((m) => m.channel === channel && m.ephemeralTo === undefined);
  }

  ephemeralMessages(userId: string): StoredMessage[] {
    return this.messages.filter((m) => m.ephemeralTo === userId);
  }

  issueTrigger(triggerId?: string): string {
    const digits = () => Math.floor(Math.random() * 1e10).toString();
    const hex = () => Math.floor(Math.random() * 0xffffffff).toString(16);
    const id = triggerId ?? `${digits()}.${digits()}.${hex()}${hex()}${hex()}${hex()}`;
    this.#triggers.set(id, this.clock.now());
    return id;
  }

  /** Slack's answer to a trigger_id: undefined when usable. */
  checkTrigger(triggerId: string): 'invalid_trigger_id' | 'expired_trigger_id' | undefined {
    const issuedAt = this.#triggers.get(triggerId);
    if (issuedAt === undefined) return 'invalid_trigger_id';
    return this.clock.now() - issuedAt > SLACK_LIMITS.triggerTtlMs ? 'expired_trigger_id' : undefined;
  }
}
