import { describe, expect, it } from 'vitest';
import { findClickable } from '../../../src/dev/demo/commands/find-clickable.js';
import type { ShownClickable } from '../../../src/dev/demo/console-state.js';
import { resolveDemoBrand } from '../../../src/dev/demo/demo-brands.js';
import { fieldNames, formInputs } from '../../../src/dev/demo/render/form-inputs.js';
import { submissionValues } from '../../../src/dev/demo/submission-values.js';
import { tokenize } from '../../../src/dev/demo/tokenize.js';
import { tourLines } from '../../../src/dev/demo/tour-lines.js';
import { subcommands } from '../../../src/slack/routers/commands/registry.js';

const ptext = (text: string) => ({ type: 'plain_text', text });

describe('tokenize', () => {
  it('keeps quoted words together, wherever the quotes are', () => {
    expect(tokenize(':usage "Acme Analytics" 92')).toEqual([':usage', 'Acme Analytics', '92']);
    expect(tokenize(`submit brand.name="Acme Labs" note='a b'  x=`)).toEqual([
      'submit',
      'brand.name=Acme Labs',
      'note=a b',
      'x=',
    ]);
    expect(tokenize('a ""')).toEqual(['a', '']);
  });
});

describe('submissionValues', () => {
  const inputs = formInputs([
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
      },
    },
    {
      type: 'input',
      block_id: 'kinds',
      label: ptext('Kinds'),
      element: {
        type: 'checkboxes',
        action_id: 'k',
        options: [
          { text: ptext('Lost'), value: 'lost' },
          { text: ptext('New'), value: 'new' },
        ],
      },
    },
    {
      type: 'input',
      block_id: 'note',
      label: ptext('Note'),
      element: { type: 'plain_text_input', action_id: 'text', initial_value: 'hi' },
    },
    { type: 'input', block_id: 'day', label: ptext('Day'), element: { type: 'datepicker', action_id: 'd' } },
  ]);

  it('shapes state.values like Slack, by value, number or label; initial values kept', async () => {
    const { values, problems } = await submissionValues(inputs, ['brand.pick=2', 'kinds=lost,New']);
    expect(problems).toEqual([]);
    expect(values).toEqual({
      brand: {
        pick: {
          type: 'static_select',
          selected_option: { text: { type: 'plain_text', text: 'Initech', emoji: true }, value: 'd4' },
        },
      },
      kinds: {
        k: {
          type: 'checkboxes',
          selected_options: [
            { text: { type: 'plain_text', text: 'Lost', emoji: true }, value: 'lost' },
            { text: { type: 'plain_text', text: 'New', emoji: true }, value: 'new' },
          ],
        },
      },
      note: { text: { type: 'plain_text_input', value: 'hi' } },
      day: { d: { type: 'datepicker', selected_date: null } },
    });
    expect((await submissionValues(inputs, ['pick=a1', 'day.d=2025-01-02'])).values['day']).toEqual({
      d: { type: 'datepicker', selected_date: '2025-01-02' },
    });
  });

  it('says what is wrong, naming the fields by their labels and the closest options', async () => {
    const { problems } = await submissionValues(inputs, [
      'brand.pick=Globex',
      'nope=1',
      'junk',
      'kinds=Lots',
    ]);
    expect(problems).toEqual([
      'The form has no field "nope"; its fields: brand, kinds, note, day.',
      '"junk" is not field=value (a field by its label, e.g. brand=…).',
      '"Globex" is not an option of Brand.',
      '"Lots" is not an option of Kinds. Did you mean "Lost"?',
    ]);
  });
});

describe('a form named by its labels', () => {
  const input = (blockId: string, label: string, element: Record<string, unknown>) => ({
    type: 'input',
    block_id: blockId,
    label: ptext(label),
    element: { action_id: 'value', ...element },
  });
  const zones = ['Europe/Berlin', 'America/Belem', 'Europe/Paris', 'America/Argentina/Buenos_Aires'];
  const inputs = formInputs([
    input('settings_crawler-drop', 'AI crawler visit drop that alerts (%)', { type: 'plain_text_input' }),
    input('settings_ai-pages', 'AI Pages usage levels that alert (%)', { type: 'plain_text_input' }),
    input('settings_tz', 'Time zone', {
      type: 'static_select',
      options: zones.map((z) => ({
        text: ptext(`${z.split('/').at(-1)!.replace(/_/g, ' ')} (${z.split('/')[0]})`),
        value: z,
      })),
    }),
    input('settings_quiet', 'Quiet hours start', { type: 'timepicker' }),
    input('settings_quiet_end', 'Quiet hours end', { type: 'timepicker' }),
  ]);

  it('calls each field by the first words of its label that tell it apart', () => {
    expect([...fieldNames(inputs).values()]).toEqual([
      'ai crawler',
      'ai pages',
      'time',
      'quiet hours start',
      'quiet hours end',
    ]);
  });

  it('takes any start of a label, a city for a time zone, and says which when a name fits two', async () => {
    const { values, problems } = await submissionValues(inputs, [
      'ai crawler=30',
      'Time zone=Berlin',
      'quiet hours start=22:00',
      'quiet hours end=07:00',
    ]);
    expect(problems).toEqual([]);
    expect(values['settings_crawler-drop']).toEqual({ value: { type: 'plain_text_input', value: '30' } });
    expect(values['settings_tz']!['value']).toMatchObject({ selected_option: { value: 'Europe/Berlin' } });
    expect(values['settings_quiet_end']).toEqual({ value: { type: 'timepicker', selected_time: '07:00' } });
    // "Buenos Aires (America)" by the city alone; the ids still work for those who know them.
    expect(
      (await submissionValues(inputs, ['time=buenos aires', 'settings_ai-pages.value=off'])).values,
    ).toMatchObject({
      settings_tz: { value: { selected_option: { value: 'America/Argentina/Buenos_Aires' } } },
      'settings_ai-pages': { value: { value: 'off' } },
    });
    expect((await submissionValues(inputs, ['quiet=22:00', 'ai=1', 'time=Berlim'])).problems).toEqual([
      '"quiet" could be "quiet hours start" or "quiet hours end": say which.',
      '"ai" could be "ai crawler" or "ai pages": say which.',
      '"Berlim" is not an option of Time zone. Did you mean "Berlin (Europe)" or "Belem (America)"?',
    ]);
  });
});

describe('submissionValues with a type-ahead select', () => {
  const inputs = formInputs([
    {
      type: 'input',
      block_id: 'brands',
      label: ptext('Brands'),
      element: { type: 'multi_external_select', action_id: 'pick' },
    },
  ]);
  const brands = [
    { label: 'Acme Analytics', value: 'a1' },
    { label: 'Acme Labs', value: 'e5' },
    { label: 'Initech', value: 'd4' },
  ];
  const asked: string[] = [];
  const suggest = async (actionId: string, typed: string) => {
    asked.push(`${actionId}:${typed}`);
    return brands.filter((b) => b.label.toLowerCase().startsWith(typed.toLowerCase()));
  };

  it('picks, per typed text, the exact suggestion, the only one, or the (N)th of the opening list', async () => {
    const { values, problems } = await submissionValues(inputs, ['brands=acme labs,ini,(1)'], suggest);
    expect(problems).toEqual([]);
    expect(values['brands']?.['pick']).toEqual({
      type: 'multi_external_select',
      selected_options: ['Acme Labs', 'Initech', 'Acme Analytics'].map((label) => ({
        text: { type: 'plain_text', text: label, emoji: true },
        value: brands.find((b) => b.label === label)?.value,
      })),
    });
    expect(asked).toEqual(['pick:acme labs', 'pick:ini', 'pick:']);
  });

  it('names the candidates when the text is ambiguous, and refuses without a way to ask', async () => {
    expect((await submissionValues(inputs, ['brands=acme'], suggest)).problems).toEqual([
      '"acme" matches 2 options of Brands: "Acme Analytics", "Acme Labs". Type one in full.',
    ]);
    expect((await submissionValues(inputs, ['brands=acme'])).problems).toEqual([
      'Brands is a type-ahead select, and nothing here can ask the bot for its options.',
    ]);
  });
});

describe('findClickable', () => {
  const c = (label: string): ShownClickable => ({
    label,
    actionId: label,
    blockId: undefined,
    value: undefined,
    selectedOption: undefined,
    url: undefined,
    confirm: undefined,
    target: { kind: 'view', viewId: 'V1' },
  });
  const shown = [c('Details'), c('Citations'), c('Period ▸ Last 30 days')];
  it('finds by number, label, option label or start', () => {
    expect(findClickable(shown, '2')?.label).toBe('Citations');
    expect(findClickable(shown, 'citations')?.label).toBe('Citations');
    expect(findClickable(shown, 'last 30 days')?.label).toBe('Period ▸ Last 30 days');
    expect(findClickable(shown, 'Det')?.label).toBe('Details');
    expect(findClickable(shown, '9')).toBeUndefined();
  });
});

describe('resolveDemoBrand', () => {
  it('takes a seed key, a full name or an unambiguous start', () => {
    expect(resolveDemoBrand('acme')?.name).toBe('Acme Analytics');
    expect(resolveDemoBrand('Acme Labs')?.name).toBe('Acme Labs');
    expect(resolveDemoBrand('north')?.name).toBe('Northwind Outfitters');
    expect(resolveDemoBrand('acme l')?.name).toBe('Acme Labs');
    expect(resolveDemoBrand('ac')).toBeUndefined();
  });
});

describe('tourLines', () => {
  it('runs help, the first example of every registered subcommand, then the console features', () => {
    const lines = tourLines(subcommands);
    expect(lines.filter((l) => !l.startsWith('#'))[0]).toBe('/visibility help');
    for (const s of subcommands) if (s.examples[0]) expect(lines).toContain(s.examples[0]);
    expect(lines).toContain(':home');
    expect(lines).toContain(':advance');
    expect(lines).toContain(':usage "Acme Analytics" 92');
    expect(lines.some((l) => l.startsWith(':click'))).toBe(true);
    // The subscription the tour made is still there when the jobs run; unsubscribe comes after.
    const jobs = lines.indexOf(':jobs');
    expect(lines.findIndex((l) => l.startsWith('/visibility subscribe '))).toBeLessThan(jobs);
    expect(lines.findIndex((l) => l.startsWith('/visibility unsubscribe '))).toBeGreaterThan(jobs);
    // The jobs run muted; unmute comes after them and posts what the mute held.
    expect(lines.findIndex((l) => l.startsWith('/visibility mute '))).toBeLessThan(jobs);
    expect(lines.findIndex((l) => l.startsWith('/visibility unmute '))).toBeGreaterThan(jobs);
  });
});
