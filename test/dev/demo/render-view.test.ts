import { describe, expect, it } from 'vitest';
import { renderView } from '../../../src/dev/demo/render/render-view.js';
import { createStyle } from '../../../src/terminal/style.js';

const plain = createStyle(false);
const ptext = (text: string) => ({ type: 'plain_text', text });

const countries = Array.from({ length: 30 }, (_, i) => ({
  text: ptext(`Country ${i + 1}`),
  value: `C${i + 1}`,
}));

const modal = {
  id: 'V1',
  type: 'modal',
  callback_id: 'vis:subscribe',
  title: ptext('Subscribe'),
  submit: ptext('Save'),
  close: ptext('Cancel'),
  blocks: [
    { type: 'section', text: { type: 'mrkdwn', text: 'Alerts for *Acme*' } },
    {
      type: 'input',
      block_id: 'brand',
      label: ptext('Brand'),
      element: {
        type: 'static_select',
        action_id: 'pick',
        options: [
          { text: ptext('Acme Analytics'), value: 'a1' },
          { text: ptext('Initech'), value: 'd4' },
        ],
        initial_option: { text: ptext('Initech'), value: 'd4' },
      },
    },
    {
      type: 'input',
      block_id: 'note',
      optional: true,
      label: ptext('Note'),
      hint: ptext('Shown in the channel'),
      element: {
        type: 'plain_text_input',
        action_id: 'text',
        multiline: true,
        placeholder: ptext('Say why'),
      },
    },
    {
      type: 'input',
      block_id: 'country',
      label: ptext('Country'),
      element: { type: 'static_select', action_id: 'value', options: countries },
    },
    { type: 'actions', elements: [{ type: 'button', action_id: 'vis:preview', text: ptext('Preview') }] },
  ],
};

describe('renderView', () => {
  it('shows a modal as a form: title, labels (never ids), numbered options, buttons', () => {
    const { lines, clickables } = renderView(modal, { style: plain });
    const text = lines.join('\n');
    expect(text).toContain('=== Modal: Subscribe ===');
    expect(text).toContain('Alerts for Acme');
    expect(text).toContain('Brand\n  ↳ static select · now "Initech" · :submit brand=…');
    expect(text).toContain('    (1) Acme Analytics\n    (2) Initech');
    expect(text).toContain(
      'Note (optional)\n  ↳ plain text input · multiline · placeholder "Say why" · :submit note=…',
    );
    expect(text).toContain('  Shown in the channel');
    expect(text).toContain('[Save]  [Cancel]');
    expect(text).toContain('Fill it in with :submit brand=… note=…');
    // No block_id, action_id, option value, view id or callback id reaches the screen.
    for (const id of ['brand.pick', 'note.text', 'a1', 'd4', 'V1', 'vis:subscribe'])
      expect(text).not.toContain(id);
    expect(clickables.map((c) => c.actionId)).toEqual(['vis:preview']);
  });

  it('shows a sample of a long select', () => {
    const text = renderView(modal, { style: plain }).lines.join('\n');
    expect(text).toContain('    (8) Country 8');
    expect(text).not.toContain('Country 9 ');
    expect(text).toContain('… 22 more');
  });

  it('shows validation errors under their inputs', () => {
    const { lines } = renderView(modal, { style: plain, errors: { brand: 'Pick a brand.', ghost: 'Odd.' } });
    const i = lines.findIndex((l) => l.includes('⚠ Pick a brand.'));
    expect(i).toBeGreaterThan(lines.findIndex((l) => l.includes(':submit brand=')));
    expect(i).toBeLessThan(lines.findIndex((l) => l.startsWith('Note')));
    expect(lines).toContain('⚠ ghost: Odd.');
  });

  it('shows a Home tab without form buttons', () => {
    const text = renderView(
      { type: 'home', blocks: [{ type: 'header', text: ptext('Hello') }] },
      { style: plain },
    ).lines.join('\n');
    expect(text).toContain('=== App Home ===');
    expect(text).toContain('=== Hello ===');
    expect(text).not.toContain('[Cancel]');
  });
});
