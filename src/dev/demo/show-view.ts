/** Shows one view (a modal as a form, or the Home tab); its clickables become `:click`'s. */
import type { StoredView } from '../local-slack/index.js';
import type { ConsoleContext } from './console-context.js';
import { renderView } from './render/render-view.js';

export function showView(
  ctx: ConsoleContext,
  view: StoredView,
  heading: string,
  errors?: Readonly<Record<string, string>>,
): void {
  const { io, state } = ctx;
  const rendered = renderView(view, { style: io.style, tokens: io.tokens, ...(errors ? { errors } : {}) });
  io.print();
  io.print(io.style.dim(`── ${heading}`));
  for (const line of rendered.lines) io.print(line);
  if (view.type === 'modal' && !view.closed) state.modalId = view.id;
  if (rendered.clickables.length > 0) {
    state.clickables = rendered.clickables.map((c) => ({ ...c, target: { kind: 'view', viewId: view.id } }));
  }
}
