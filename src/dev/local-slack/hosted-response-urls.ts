/**
 * Hosted response_urls, one per slash command or block action. Slack allows each "up to 5
 * times within 30 minutes" (https://docs.slack.dev/interactivity/handling-user-interaction);
 * after that it answers 404 `used_url` / `expired_url`. Bodies are JSON (Bolt `respond()`
 * posts `application/json`) with `text`, `blocks`, `response_type` (`ephemeral` default,
 * `in_channel`), `replace_original`, `delete_original`, `thread_ts`. Content is checked like
 * chat.postMessage; a rejection is HTTP 400 with the error as plain text, as Slack's hooks do.
 */
import type { Clock } from '../../clock.js';
import { checkMessageContent } from './check-message-content.js';
import { flag, str } from './parse-api-args.js';
import { SLACK_LIMITS } from './slack-limits.js';
import type { ResponseUrlPost, StoredMessage } from './types.js';
import type { Workspace } from './workspace.js';

interface HostedResponseUrl {
  id: string;
  createdAt: number;
  uses: number;
  channelId: string;
  userId: string;
  /** The message the interaction came from (block actions), for replace/delete_original. */
  originalTs: string | undefined;
  /** The last message this URL produced: what a later `replace_original` replaces. */
  lastReplyTs: string | undefined;
}

interface ResponseUrlAnswer {
  status: number;
  contentType: string;
  body: string;
}

export class HostedResponseUrls {
  readonly posts: ResponseUrlPost[] = [];
  readonly #urls = new Map<string, HostedResponseUrl>();

  constructor(
    private readonly ws: Workspace,
    private readonly clock: Clock,
  ) {}

  create(o: { channelId: string; userId: string; originalTs: string | undefined }): HostedResponseUrl {
    const url: HostedResponseUrl = {
      id: this.ws.nextId('R'),
      createdAt: this.clock.now(),
      uses: 0,
      ...o,
      lastReplyTs: undefined,
    };
    this.#urls.set(url.id, url);
    return url;
  }

  get(id: string): HostedResponseUrl | undefined {
    return this.#urls.get(id);
  }

  reset(): void {
    this.#urls.clear();
    this.posts.length = 0;
  }

  handle(id: string, rawBody: string): ResponseUrlAnswer {
    let body: unknown = rawBody;
    try {
      body = JSON.parse(rawBody);
    } catch {
      // recorded as text; rejected below
    }
    const post: ResponseUrlPost = {
      at: this.clock.now(),
      responseUrlId: id,
      body,
      status: 200,
      error: undefined,
      errors: [],
      messageTs: undefined,
    };
    this.posts.push(post);
    const reject = (status: number, error: string, errors: string[] = []): ResponseUrlAnswer => {
      Object.assign(post, { status, error, errors });
      return { status, contentType: 'text/plain', body: error };
    };

    const url = this.#urls.get(id);
    if (!url) return reject(404, 'no_service');
    if (this.clock.now() - url.createdAt > SLACK_LIMITS.responseUrlTtlMs) return reject(404, 'expired_url');
    if (url.uses >= SLACK_LIMITS.responseUrlUses) return reject(404, 'used_url');
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return reject(400, 'invalid_payload');
    const args = body as Record<string, unknown>;

    if (flag(args['delete_original'])) {
      const target = this.target(url);
      if (target) this.ws.removeMessage(target);
      url.uses += 1;
      post.messageTs = target?.ts;
      return ok();
    }
    const checked = checkMessageContent(args, { refusedTypes: this.ws.faults.refusedBlockTypes });
    if (!checked.ok) return reject(400, checked.problem.error, checked.problem.messages);
    const target = flag(args['replace_original']) ? this.target(url) : undefined;
    let message: StoredMessage;
    if (target) {
      this.ws.editMessage(target, checked.content);
      message = target;
    } else {
      const inChannel = str(args['response_type']) === 'in_channel';
      message = this.ws.addMessage({
        channel: url.channelId,
        ...checked.content,
        metadata: undefined,
        thread_ts: str(args['thread_ts']) || undefined,
        reply_broadcast: false,
        ephemeralTo: inChannel ? undefined : url.userId,
        via: 'response_url',
        responseUrlId: url.id,
      });
    }
    url.uses += 1;
    url.lastReplyTs = message.ts;
    post.messageTs = message.ts;
    return ok();
  }

  /** The message `replace_original` / `delete_original` act on. */
  private target(url: HostedResponseUrl): StoredMessage | undefined {
    const ts = url.originalTs ?? url.lastReplyTs;
    return ts ? this.ws.findAnyMessage(ts, url.channelId) : undefined;
  }
}

function ok(): ResponseUrlAnswer {
  return { status: 200, contentType: 'application/json', body: JSON.stringify({ ok: true }) };
}
