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
  it('shows a modal as a form: title, labels with their ids, numbered options, buttons', () => {
    const { lines, clickables } = renderView(modal, { style: plain });
    const text = lines.join('\n');
    expect(text).toContain('=== Modal: Subscribe ===  (view V1, callback vis:subscribe)');
    expect(text).toContain('Alerts for Acme');
    expect(text).toContain('Brand\n  ↳ `brand.pick` · static select · now "Initech"');
    expect(text).toContain('    (1) Acme Analytics = a1\n    (2) Initech = d4');
    expect(text).toContain(
      'Note (optional)\n  ↳ `note.text` · plain text input · multiline · placeholder "Say why"',
    );
    expect(text).toContain('  Shown in the channel');
    expect(text).toContain('[Save]  [Cancel]');
    expect(text).toContain(':submit brand.pick=');
    expect(clickables.map((c) => c.actionId)).toEqual(['vis:preview']);
  });

  it('shows a sample of a long select', () => {
    const text = renderView(modal, { style: plain }).lines.join('\n');
    expect(text).toContain('    (8) Country 8 = C8');
    expect(text).not.toContain('Country 9 ');
    expect(text).toContain('… 22 more');
  });

  it('shows validation errors under their inputs', () => {
    const { lines } = renderView(modal, { style: plain, errors: { brand: 'Pick a brand.', ghost: 'Odd.' } });
    const i = lines.findIndex((l) => l.includes('⚠ Pick a brand.'));
    expect(i).toBeGreaterThan(lines.findIndex((l) => l.includes('`brand.pick`')));
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
