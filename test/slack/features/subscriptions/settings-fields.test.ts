/**
 * The settings form's parts on their own: the time zone select fits Slack's limits and
 * offers every zone once, and the form's values read like the command's (defaults for
 * empty fields, mistakes under the field they are about).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../../../src/alerts/alert-settings.js';
import {
  readSettingsForm,
  settingsInputs,
} from '../../../../src/slack/features/subscriptions/settings-fields.js';
import { timeZoneSelect } from '../../../../src/slack/features/subscriptions/time-zone-select.js';

type Values = Record<string, Record<string, unknown>>;

const text = (value: string) => ({ value: { type: 'plain_text_input', value } });
const time = (t: string | null) => ({ value: { type: 'timepicker', selected_time: t } });
const zone = (z: string) => ({ value: { type: 'static_select', selected_option: { value: z } } });
const ticked = (...vs: string[]) => ({
  value: { type: 'checkboxes', selected_options: vs.map((value) => ({ value })) },
});

/** What Slack sends for the form as it opens for the defaults. */
const untouched = (): Values => ({
  settings_events: ticked('lost', 'competitor', 'sentiment'),
  'settings_sentiment-drop': text(''),
  'settings_crawler-drop': text(''),
  'settings_crawler-recovery': text(''),
  'settings_ai-pages': text(''),
  settings_digest: time('09:00'),
  'settings_digest-chart': ticked('on'),
  settings_tz: zone('default'),
  settings_quiet: time(null),
  settings_quiet_end: time(null),
  settings_weekly: ticked(),
  'settings_weekly-day': zone('monday'),
  'settings_weekly-time': time(null),
});

describe('timeZoneSelect', () => {
  it('offers every zone the runtime knows once, in groups Slack accepts', () => {
    const select = timeZoneSelect('value', null, 'Europe/Paris');
    const values = select.option_groups.flatMap((g) => g.options.map((o) => o.value));
    expect(select.option_groups.length).toBeLessThanOrEqual(100);
    for (const g of select.option_groups) {
      expect(g.options.length).toBeGreaterThan(0);
      expect(g.options.length).toBeLessThanOrEqual(100);
      expect(g.label.text.length).toBeLessThanOrEqual(75);
    }
    expect(new Set(values).size).toBe(values.length);
    for (const z of Intl.supportedValuesOf('timeZone')) expect(values).toContain(z);
    expect(select.option_groups[0]!.options[0]).toEqual({
      text: { type: 'plain_text', text: "The bot's default (Europe/Paris)" },
      value: 'default',
    });
    expect(select.initial_option?.value).toBe('default');
  });

  it('starts at the subscription’s zone, offering one this runtime does not list', () => {
    expect(timeZoneSelect('value', 'Asia/Tokyo', 'UTC').initial_option).toEqual({
      text: { type: 'plain_text', text: 'Tokyo (Asia)' },
      value: 'Asia/Tokyo',
    });
    const odd = timeZoneSelect('value', 'US/Eastern', 'UTC');
    expect(odd.initial_option?.value).toBe('US/Eastern');
    expect(odd.option_groups[0]!.options.map((o) => o.value)).toContain('US/Eastern');
  });
});

describe('readSettingsForm', () => {
  it('an untouched form for the defaults reads back as the defaults', () => {
    expect(readSettingsForm(untouched())).toEqual({ ok: true, settings: DEFAULT_ALERT_SETTINGS });
  });

  it('how crawler falls are judged: radio buttons starting at the setting; none picked is auto', () => {
    const radio = (value: string | null) => ({
      value: { type: 'radio_buttons', selected_option: value ? { value } : null },
    });
    const input = (settings = DEFAULT_ALERT_SETTINGS) =>
      settingsInputs(settings, 'UTC').find(
        (b) => 'block_id' in b && b.block_id === 'settings_crawler-alerts',
      );
    expect(input()).toMatchObject({
      label: { text: 'How crawler falls are judged' },
      element: { type: 'radio_buttons', initial_option: { value: 'auto' } },
    });
    expect(input({ ...DEFAULT_ALERT_SETTINGS, crawlerAlerts: 'threshold' })).toMatchObject({
      element: { initial_option: { value: 'threshold' } },
    });
    const picked = readSettingsForm({ ...untouched(), 'settings_crawler-alerts': radio('range') });
    expect(picked).toEqual({ ok: true, settings: { ...DEFAULT_ALERT_SETTINGS, crawlerAlerts: 'range' } });
    const none = readSettingsForm(
      { ...untouched(), 'settings_crawler-alerts': radio(null) },
      { ...DEFAULT_ALERT_SETTINGS, crawlerAlerts: 'threshold' },
    );
    expect(none.ok && none.settings.crawlerAlerts).toBeUndefined();
  });

  it('the digest chart box: unticked is off; a form from before the box existed keeps the setting', () => {
    const off = readSettingsForm({ ...untouched(), 'settings_digest-chart': ticked() });
    expect(off).toEqual({ ok: true, settings: { ...DEFAULT_ALERT_SETTINGS, digestChart: false } });
    const { 'settings_digest-chart': _absent, ...older } = untouched();
    const base = { ...DEFAULT_ALERT_SETTINGS, digestChart: false };
    expect(readSettingsForm(older, base)).toEqual({ ok: true, settings: base });
    expect(readSettingsForm(older)).toEqual({ ok: true, settings: DEFAULT_ALERT_SETTINGS });
  });

  it('reads what people type: spaces after commas, a % sign, off', () => {
    const r = readSettingsForm({
      ...untouched(),
      'settings_ai-pages': text('off'),
      'settings_crawler-drop': text(' 35 % '),
      'settings_sentiment-drop': text('10'),
      settings_events: ticked(),
      settings_quiet: time('12:00'),
      settings_quiet_end: time('13:30'),
      settings_tz: zone('Asia/Tokyo'),
    });
    expect(r).toEqual({
      ok: true,
      settings: {
        ...DEFAULT_ALERT_SETTINGS,
        aiPagesThresholds: [],
        crawlerDropPct: 35,
        sentimentDrop: 10,
        events: [],
        quietHours: { start: '12:00', end: '13:30' },
        timezone: 'Asia/Tokyo',
      },
    });
  });

  it('puts every mistake under its own field at once', () => {
    const r = readSettingsForm({
      ...untouched(),
      'settings_ai-pages': text('80, lots'),
      'settings_sentiment-drop': text('0'),
      settings_quiet: time('22:00'),
      settings_quiet_end: time('22:00'),
      settings_tz: zone('Mars/Olympus'),
    });
    expect(r).toEqual({
      ok: false,
      errors: {
        'settings_ai-pages': '"lots" must be a whole percentage from 1 to 100.',
        'settings_sentiment-drop': '"0" must be a whole number of points from 1 to 100.',
        settings_quiet_end: 'The end must differ from the start; leave both empty for no quiet hours.',
        settings_tz:
          '"Mars/Olympus" is not a time zone. Give a city such as Berlin, or a zone name such as Europe/Berlin or UTC.',
      },
    });
  });

  it('the weekly summary: ticked with a day and a time; an empty time follows the digest time', () => {
    const on = readSettingsForm({
      ...untouched(),
      settings_weekly: ticked('on'),
      'settings_weekly-day': zone('thursday'),
      'settings_weekly-time': time('16:45'),
    });
    expect(on).toEqual({
      ok: true,
      settings: { ...DEFAULT_ALERT_SETTINGS, weekly: true, weeklyDay: 'thursday', weeklyTime: '16:45' },
    });
    const base = on.ok ? on.settings : DEFAULT_ALERT_SETTINGS;
    expect(readSettingsForm({ ...untouched(), settings_weekly: ticked('on') }, base)).toEqual({
      ok: true,
      settings: { ...DEFAULT_ALERT_SETTINGS, weekly: true },
    });
    // The form it opens with shows those values, and an empty time picker says what empty means.
    const inputs = settingsInputs(base, 'UTC');
    const block = (id: string) => inputs.find((b) => b.block_id === id) as unknown as Record<string, unknown>;
    const el = (id: string) => block(id)['element'] as Record<string, unknown>;
    expect(el('settings_weekly')['initial_options']).toEqual([
      {
        text: { type: 'plain_text', text: 'A summary of the past 7 days each week, with a chart' },
        value: 'on',
      },
    ]);
    expect(el('settings_weekly-day')['initial_option']).toEqual({
      text: { type: 'plain_text', text: 'Thursday' },
      value: 'thursday',
    });
    expect(el('settings_weekly-time')['initial_time']).toBe('16:45');
    const fresh = settingsInputs(DEFAULT_ALERT_SETTINGS, 'UTC');
    const freshTime = fresh.find((b) => b.block_id === 'settings_weekly-time') as unknown as Record<
      string,
      unknown
    >;
    expect((freshTime['element'] as Record<string, unknown>)['initial_time']).toBeUndefined();
    expect(freshTime['hint']).toEqual({
      type: 'plain_text',
      text: "In the subscription's time zone. Leave it empty for the digest time.",
    });
  });

  it('the form it builds fills in custom values and leaves defaults empty', () => {
    const inputs = settingsInputs({ ...DEFAULT_ALERT_SETTINGS, aiPagesThresholds: [50, 100] }, 'UTC');
    const el = (id: string) =>
      (inputs.find((b) => b.block_id === id) as { element: Record<string, unknown> }).element;
    expect(el('settings_ai-pages')['initial_value']).toBe('50, 100');
    expect(el('settings_crawler-drop')['initial_value']).toBeUndefined();
  });
});
