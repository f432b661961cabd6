/**
 * views.open, views.push, views.update, views.publish: https://docs.slack.dev/reference/methods/views.open
 * and siblings. trigger_id is required to open or push and expires 3 s after the interaction
 * (`expired_trigger_id`); updates honour `hash` (`hash_conflict`).
 */
import { randomBytes } from 'node:crypto';
import { str } from '../parse-api-args.js';
import { readView } from '../read-view.js';
import type { StoredView, ViewInput } from '../types.js';
import type { Workspace } from '../workspace.js';
import { type ApiResult, type MethodHandler, slackError } from './method-context.js';

const newHash = (): string => `${Math.floor(Date.now() / 1000)}.${randomBytes(6).toString('hex')}`;

/** The view as the Web API returns it (our bookkeeping fields left out). */
export function viewJson(v: StoredView): Record<string, unknown> {
  const { user_id: _user, closed: _closed, ...wire } = v;
  return wire;
}

export function storeNewView(
  ws: Workspace,
  input: ViewInput,
  userId: string | undefined,
  previous: StoredView | undefined,
): StoredView {
  const id = ws.nextId('V');
  const view: StoredView = {
    id,
    team_id: ws.identity.teamId,
    ...input,
    state: { values: {} },
    hash: newHash(),
    root_view_id: previous?.root_view_id ?? id,
    previous_view_id: previous?.id ?? null,
    app_id: ws.identity.appId,
    bot_id: ws.identity.botId,
    user_id: userId,
    closed: false,
  };
  ws.views.set(id, view);
  return view;
}

/** A new payload for an existing view; an omitted external_id keeps the one it had. */
export function replaceView(view: StoredView, input: ViewInput): void {
  Object.assign(view, input, { external_id: input.external_id || view.external_id, hash: newHash() });
}

function checkTrigger(ws: Workspace, args: Record<string, unknown>): ApiResult | undefined {
  const trigger = str(args['trigger_id']);
  if (!trigger) return slackError('invalid_arguments', ['missing required field: trigger_id']);
  const problem = ws.checkTrigger(trigger);
  return problem ? slackError(problem) : undefined;
}

function checkExternalId(ws: Workspace, input: ViewInput): ApiResult | undefined {
  if (input.external_id === '') return undefined;
  const taken = [...ws.views.values()].some((v) => v.external_id === input.external_id && !v.closed);
  return taken ? slackError('duplicate_external_id') : undefined;
}

/** What views.open and views.push both demand: a live trigger, a valid modal, a free external_id. */
function readNewModal(
  ws: Workspace,
  args: Record<string, unknown>,
): { view: ViewInput } | { refused: ApiResult } {
  const triggerProblem = checkTrigger(ws, args);
  if (triggerProblem) return { refused: triggerProblem };
  const checked = readView(args['view'], ['modal'], ws.faults.refusedBlockTypes);
  if (!checked.ok) return { refused: slackError(checked.error, checked.messages) };
  const duplicate = checkExternalId(ws, checked.view);
  if (duplicate) return { refused: duplicate };
  return { view: checked.view };
}

export const open: MethodHandler = (args, { ws }) => {
  const modal = readNewModal(ws, args);
  if ('refused' in modal) return modal.refused;
  return { ok: true, view: viewJson(storeNewView(ws, modal.view, undefined, undefined)) };
};

export const push: MethodHandler = (args, { ws }) => {
  const modal = readNewModal(ws, args);
  if ('refused' in modal) return modal.refused;
  const top = [...ws.views.values()].filter((v) => v.type === 'modal' && !v.closed).at(-1);
  return { ok: true, view: viewJson(storeNewView(ws, modal.view, top?.user_id, top)) };
};

export const update: MethodHandler = (args, { ws }) => {
  const viewId = str(args['view_id']);
  const externalId = str(args['external_id']);
  if (!viewId && !externalId) return slackError('invalid_arguments', ['missing required field: view_id']);
  const view = viewId
    ? ws.views.get(viewId)
    : [...ws.views.values()].find((v) => v.external_id === externalId && !v.closed);
  if (!view) return slackError('not_found');
  const hash = str(args['hash']);
  if (hash && hash !== view.hash) return slackError('hash_conflict');
  const checked = readView(args['view'], [view.type], ws.faults.refusedBlockTypes);
  if (!checked.ok) return slackError(checked.error, checked.messages);
  replaceView(view, checked.view);
  return { ok: true, view: viewJson(view) };
};

export const publish: MethodHandler = (args, { ws }) => {
  const userId = str(args['user_id']);
  if (!userId) return slackError('invalid_arguments', ['missing required field: user_id']);
  if (!ws.users.has(userId)) return slackError('user_not_found');
  const checked = readView(args['view'], ['home'], ws.faults.refusedBlockTypes);
  if (!checked.ok) return slackError(checked.error, checked.messages);
  const existingId = ws.homeViewByUser.get(userId);
  const existing = existingId ? ws.views.get(existingId) : undefined;
  const hash = str(args['hash']);
  if (existing && hash && hash !== existing.hash) return slackError('hash_conflict');
  if (existing) {
    replaceView(existing, checked.view);
    return { ok: true, view: viewJson(existing) };
  }
  const view = storeNewView(ws, checked.view, userId, undefined);
  ws.homeViewByUser.set(userId, view.id);
  return { ok: true, view: viewJson(view) };
};
