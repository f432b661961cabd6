/**
 * What Slack does with the ack of a view_submission: no body closes the modal;
 * `response_action` `errors` keeps it open, `update` replaces it, `push` stacks a new one,
 * `clear` closes the whole stack (https://docs.slack.dev/surfaces/modals#updating_response).
 */
import { replaceView, storeNewView } from './methods/views-methods.js';
import { readView } from './read-view.js';
import type { StoredView } from './types.js';
import type { Workspace } from './workspace.js';

export function applyViewResponseAction(
  ws: Workspace,
  view: StoredView,
  values: StoredView['state']['values'],
  ack: unknown,
): void {
  view.state = { values };
  const body = typeof ack === 'object' && ack !== null ? (ack as Record<string, unknown>) : {};
  const action = body['response_action'];
  if (action === 'errors') return;
  if (action === 'update' || action === 'push') {
    // An invalid view in the ack is refused by Slack and the modal stays as it was.
    const checked = readView(body['view'], ['modal'], ws.faults.refusedBlockTypes);
    if (!checked.ok) return;
    if (action === 'update') replaceView(view, checked.view);
    else storeNewView(ws, checked.view, view.user_id, view);
    return;
  }
  if (action === 'clear') {
    for (const v of ws.views.values()) if (v.root_view_id === view.root_view_id) v.closed = true;
    return;
  }
  view.closed = true;
}
