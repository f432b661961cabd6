/** `:click 2` or `:click Details`: the shown clickable meant. */
import type { ShownClickable } from '../console-state.js';

export function findClickable(shown: readonly ShownClickable[], ref: string): ShownClickable | undefined {
  if (/^\d+$/.test(ref)) return shown[Number(ref) - 1];
  const r = ref.toLowerCase();
  const label = (c: ShownClickable) => c.label.toLowerCase();
  const last = (c: ShownClickable) => label(c).split(' ▸ ').at(-1) ?? '';
  return (
    shown.find((c) => label(c) === r) ??
    shown.find((c) => last(c) === r) ??
    shown.find((c) => label(c).startsWith(r) || last(c).startsWith(r))
  );
}
