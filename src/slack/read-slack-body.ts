/**
 * What a signed request to /slack/events carries, checked before Bolt sees it. Bolt
 * trusts the shape of a signed body: `payload=null` crashes its receiver (it reads
 * `ssl_check` of null) and a click without `user` or `team` throws while it builds the
 * listener's context (HTTP 500). Slack never sends such bodies, so anything that does not
 * look like one of the requests this bot handles is refused here, with the reason for
 * the log (never the body: it may carry tokens and user text).
 *
 * Shapes: https://docs.slack.dev/interactivity/implementing-slash-commands,
 * /reference/interaction-payloads, /apis/events-api.
 */
import { createHash } from 'node:crypto';
import { parse as parseQuery } from 'node:querystring';
import * as z from 'zod/mini';

/** Bolt's HTTPReceiver compares the header verbatim; so do we, to agree on what is a form. */
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

type SlackBodyKind =
  | 'ssl_check'
  | 'url_verification'
  | 'slash_command'
  | 'block_actions'
  | 'view_submission'
  | 'view_closed'
  | 'block_suggestion'
  | 'event_callback';

type SlackBody =
  | {
      ok: true;
      kind: SlackBodyKind;
      /** Stays the same when Slack redelivers the request; undefined: nothing to dedupe. */
      requestKey: string | undefined;
    }
  | {
      ok: false;
      reason: string;
      /**
       * A body that is not JSON at all (wrong content type) stays Bolt's 400, as before;
       * a signed request in Slack's shape with content the bot cannot use gets a 200 with
       * nothing done, so Slack shows the user no error for what the bot chose to ignore.
       */
      unparseable?: true;
    };

const id = z.string().check(z.minLength(1), z.maxLength(255));
const url = z.url({ protocol: /^https?$/ });
const team = z.looseObject({ id });

const slashCommand = z.looseObject({
  command: z.string().check(z.regex(/^\/\S+$/)),
  text: z.string(),
  user_id: id,
  channel_id: id,
  team_id: id,
  response_url: url,
  trigger_id: id,
});

/** A user; `team` may be null on org-wide installs, then the user's team_id names it. */
const interaction = z
  .looseObject({
    user: z.looseObject({ id, team_id: z.optional(id) }),
    team: z.optional(z.nullable(team)),
    trigger_id: z.optional(id),
  })
  .check(z.refine((b) => Boolean(b.team?.id ?? b.user.team_id), 'team missing'));

const action = z.looseObject({ action_id: id, type: z.string().check(z.minLength(1)) });

const blockActions = z
  .looseObject({
    trigger_id: id,
    actions: z.array(action).check(z.minLength(1)),
    container: z.looseObject({ type: z.string() }),
    channel: z.optional(z.looseObject({ id })),
    response_url: z.optional(url),
    view: z.optional(z.looseObject({ id })),
  })
  // A click on a message is answered through its response_url, in its channel; a click
  // in a modal or the App Home names its view instead.
  .check(
    z.refine(
      (b) => Boolean(b.container.type === 'message' ? b.channel && b.response_url : b.view),
      'channel, response_url or view missing',
    ),
  );

/** A type-ahead select asking for options: what was typed (maybe nothing) and where. */
const blockSuggestion = z.looseObject({
  action_id: id,
  block_id: id,
  value: z.string().check(z.maxLength(1000)),
  container: z.looseObject({ type: z.string() }),
});

const viewPayload = z.looseObject({
  id,
  callback_id: z.string(),
  private_metadata: z.optional(z.string()),
  state: z.looseObject({ values: z.record(z.string(), z.record(z.string(), z.unknown())) }),
});
const viewSubmission = z.looseObject({ trigger_id: id, view: viewPayload });
const viewClosed = z.looseObject({ view: z.partial(viewPayload, { state: true }) });

/** The App Home listener reads who opened which tab. */
const homeOpened = z.looseObject({ user: id, tab: z.string() });
/** A Workflow Builder step reads which function, which run, its inputs and the run's token. */
const functionExecuted = z.looseObject({
  function: z.looseObject({ callback_id: id }),
  function_execution_id: id,
  inputs: z.record(z.string(), z.unknown()),
  bot_access_token: id,
});
const eventCallback = z.looseObject({
  team_id: id,
  event_id: id,
  event: z.looseObject({ type: z.string().check(z.minLength(1)) }).check(
    z.refine(
      (e) => e.type !== 'app_home_opened' || homeOpened.safeParse(e).success,
      'app_home_opened without user or tab',
    ),
    z.refine(
      (e) => e.type !== 'function_executed' || functionExecuted.safeParse(e).success,
      'function_executed without its function, run, inputs or token',
    ),
  ),
});
const urlVerification = z.looseObject({ challenge: z.string().check(z.minLength(1), z.maxLength(1000)) });

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function problem(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  // zod/mini carries no message locale: the expected type is said here.
  const what =
    issue.code === 'invalid_type'
      ? `expected ${issue.expected}`
      : issue.message === 'Invalid input'
        ? issue.code.replace(/_/g, ' ')
        : issue.message;
  return `${issue.path.join('.') || '(body)'}: ${what}`;
}

function check(
  schema: z.ZodMiniType,
  body: unknown,
  kind: SlackBodyKind,
  requestKey: string | undefined,
): SlackBody {
  const parsed = schema.safeParse(body);
  return parsed.success
    ? { ok: true, kind, requestKey }
    : { ok: false, reason: `${kind} ${problem(parsed.error)}` };
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function readInteraction(payload: Record<string, unknown>): SlackBody {
  const base = interaction.safeParse(payload);
  if (!base.success) return { ok: false, reason: `interaction ${problem(base.error)}` };
  const type = payload['type'];
  // trigger_id is unique per click or submission and the same in a redelivery.
  const key = `${String(type)}:${String(payload['trigger_id'])}`;
  if (type === 'block_actions') return check(blockActions, payload, 'block_actions', key);
  if (type === 'view_submission') return check(viewSubmission, payload, 'view_submission', key);
  if (type === 'view_closed') return check(viewClosed, payload, 'view_closed', undefined);
  // Options requests only read: a redelivery is answered again, nothing to dedupe.
  if (type === 'block_suggestion') return check(blockSuggestion, payload, 'block_suggestion', undefined);
  return { ok: false, reason: `interaction type ${JSON.stringify(type)?.slice(0, 40)} not handled` };
}

function readCommand(form: Record<string, unknown>): SlackBody {
  const command = slashCommand.safeParse(form);
  if (!command.success) return { ok: false, reason: `slash_command ${problem(command.error)}` };
  return { ok: true, kind: 'slash_command', requestKey: `command:${command.data.trigger_id}` };
}

function readEvent(body: Record<string, unknown>): SlackBody {
  if (body['type'] === 'url_verification') return check(urlVerification, body, 'url_verification', undefined);
  if (body['type'] === 'event_callback')
    return check(eventCallback, body, 'event_callback', `event:${String(body['event_id'])}`);
  return { ok: false, reason: `event type ${JSON.stringify(body['type'])?.slice(0, 40)} not handled` };
}

function readForm(text: string): SlackBody {
  const form = parseQuery(text);
  if (Object.values(form).some(Array.isArray)) return { ok: false, reason: 'form field repeated' };
  if (form['ssl_check'] === '1') return { ok: true, kind: 'ssl_check', requestKey: undefined };
  if ('payload' in form) {
    const payload = readJson(String(form['payload']));
    if (!isObject(payload)) return { ok: false, reason: 'payload is not a JSON object' };
    return readInteraction(payload);
  }
  return readCommand(form);
}

function readEventsApi(text: string): SlackBody {
  const body = readJson(text);
  if (body === undefined) return { ok: false, reason: 'body is not JSON', unparseable: true };
  if (!isObject(body)) return { ok: false, reason: 'body is not a JSON object' };
  return readEvent(body);
}

/** Classifies a raw request body; `contentType` is the header as sent. */
export function readSlackBody(rawBody: string, contentType: string | undefined): SlackBody {
  return contentType === FORM_CONTENT_TYPE ? readForm(rawBody) : readEventsApi(rawBody);
}

/**
 * Classifies a Socket Mode envelope's payload, which arrives parsed: a slash command's
 * form fields, an interaction payload, or an Events API body, told apart by their shape.
 */
export function readSlackPayload(body: unknown): SlackBody {
  if (!isObject(body)) return { ok: false, reason: 'payload is not a JSON object' };
  if ('command' in body) return readCommand(body);
  if (body['type'] === 'event_callback' || body['type'] === 'url_verification') return readEvent(body);
  return readInteraction(body);
}

/** A short, stable digest for logs: which request, without its content. */
export function bodyDigest(rawBody: string): string {
  return createHash('sha256').update(rawBody).digest('hex').slice(0, 12);
}
