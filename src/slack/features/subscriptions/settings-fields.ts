/**
 * The settings form's fields, one row per setting of the `settings` command. Each field
 * turns what the form holds into the command's `key=value` value and is checked by the
 * command's own parser, so the form and the command accept exactly the same settings and
 * say the same things about mistakes (shown under the field instead of in a list). A new
 * setting is one more row here (a boolean one: a `choices` row with its on value).
 */

import type { AlertSettings } from '../../../alerts/alert-settings.js';
import { DEFAULT_ALERT_SETTINGS, weekDays } from '../../../alerts/alert-settings.js';
import { settingsArgValues } from '../../../alerts/format-settings.js';
import {
  parseSettingsArgs,
  parseSettingValue,
  type SettingKey,
} from '../../../alerts/parse-settings-args.js';
import { capitalised } from '../../../figures/plural.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { INPUT_ACTION_ID } from '../../views/brand-form-modal.js';
import { DEFAULT_ZONE_VALUE, timeZoneSelect } from './time-zone-select.js';

type Values = Record<string, Record<string, unknown>>;

const CLOCK = /^\d{2}:\d{2}$/;

interface Choice {
  value: string;
  label: string;
}

type FieldKind =
  /** A number or a list typed in; empty means the default. */
  | { type: 'text'; unit: string; example: string }
  /** Ticked options joined with commas; none ticked is `none` ("off" for a one-option switch). */
  | { type: 'choices'; choices: readonly Choice[]; noneValue: string; noneLabel?: string }
  /** A time picker; `emptyMeans` says what an empty one means when that is not a time. */
  | { type: 'time'; emptyMeans?: string }
  | { type: 'zone' }
  /** One of a few values: radio buttons (nothing picked is the default), or a menu when `menu`. */
  | { type: 'one'; choices: readonly Choice[]; menu?: true }
  /** Two time pickers, `from-to`; both empty is `off`. */
  | { type: 'range' };

interface SettingField {
  key: SettingKey;
  label: string;
  kind: FieldKind;
}

const SETTINGS_FIELDS: readonly SettingField[] = [
  {
    key: 'events',
    label: 'Citation changes that alert',
    kind: {
      type: 'choices',
      choices: [
        { value: 'lost', label: 'A cited page is lost' },
        { value: 'competitor', label: 'A competitor appears on a cited page' },
        { value: 'sentiment', label: 'Sentiment falls' },
      ],
      noneValue: 'none',
    },
  },
  {
    key: 'sentiment-drop',
    label: 'Sentiment drop that alerts (points)',
    kind: { type: 'text', unit: ' points', example: '25' },
  },
  {
    key: 'crawler-drop',
    label: 'AI crawler visit drop that alerts (%)',
    kind: { type: 'text', unit: ' %', example: '30' },
  },
  {
    key: 'crawler-recovery',
    label: 'Crawler recovered when the drop is back under (%)',
    kind: { type: 'text', unit: ' %', example: '15' },
  },
  {
    key: 'crawler-alerts',
    label: 'How crawler falls are judged',
    kind: {
      type: 'one',
      choices: [
        { value: 'auto', label: 'Usual range once there are 3 weeks of history, drop level before' },
        { value: 'range', label: "The brand's usual range for these days" },
        { value: 'threshold', label: 'The fixed drop level above' },
      ],
    },
  },
  {
    key: 'ai-pages',
    label: 'AI Pages usage levels that alert (%)',
    kind: { type: 'text', unit: ' %', example: '75, 95 (or off)' },
  },
  {
    key: 'model-alerts',
    label: 'AI model alerts',
    kind: {
      type: 'choices',
      choices: [{ value: 'on', label: 'Alert when an AI model stops citing you (one more API call a day)' }],
      noneValue: 'off',
    },
  },
  { key: 'digest', label: 'Daily digest time', kind: { type: 'time' } },
  {
    key: 'digest-chart',
    label: 'Digest chart',
    kind: {
      type: 'choices',
      choices: [{ value: 'on', label: 'A chart of the last 7 days after each digest' }],
      noneValue: 'off',
    },
  },
  {
    key: 'charts',
    label: 'Charts',
    kind: {
      type: 'choices',
      choices: [{ value: 'image', label: 'As images (for Slack apps that do not draw charts yet)' }],
      noneValue: 'native',
      noneLabel: 'drawn by Slack in the message',
    },
  },
  { key: 'tz', label: 'Time zone', kind: { type: 'zone' } },
  { key: 'quiet', label: 'Quiet hours start (alerts wait until they end)', kind: { type: 'range' } },
  {
    key: 'weekly',
    label: 'Weekly summary',
    kind: {
      type: 'choices',
      choices: [{ value: 'on', label: 'A summary of the past 7 days each week, with a chart' }],
      noneValue: 'off',
    },
  },
  {
    key: 'weekly-day',
    label: 'Weekly summary day',
    kind: { type: 'one', menu: true, choices: weekDays.map((d) => ({ value: d, label: capitalised(d) })) },
  },
  { key: 'weekly-time', label: 'Weekly summary time', kind: { type: 'time', emptyMeans: 'the digest time' } },
];

const fieldBlockId = (key: SettingKey): string => `settings_${key}`;
/** The second picker of a range (quiet hours' end). */
const rangeEndBlockId = (key: SettingKey): string => `settings_${key}_end`;

const plain = (text: string) => ({ type: 'plain_text' as const, text: escapeMrkdwn(text) });
const defaultArgs = settingsArgValues(DEFAULT_ALERT_SETTINGS);

/** `80,90,100` → `80, 90, 100 %`: the default as the form shows it. */
function shown(value: string, unit: string): string {
  return `${value.split(',').join(', ')}${unit}`;
}

function choiceOption(c: Choice) {
  return { text: plain(c.label), value: c.value };
}

type InputBase = { type: 'input'; block_id: string; label: ReturnType<typeof plain> };
type KindOf<T extends FieldKind['type']> = Extract<FieldKind, { type: T }>;

/** Checkboxes: the ticked choices are the value; none ticked is the kind's `noneValue`. */
function choicesInput(base: InputBase, kind: KindOf<'choices'>, value: string, dflt: string): KnownBlock {
  const on = value === kind.noneValue ? [] : value.split(',');
  const initial = kind.choices.filter((c) => on.includes(c.value)).map(choiceOption);
  const defaults = kind.choices.filter((c) => dflt.split(',').includes(c.value));
  return {
    ...base,
    optional: true,
    hint: plain(
      `Default: ${defaults.length > 0 ? defaults.map((c) => c.label.toLowerCase()).join('; ') : (kind.noneLabel ?? 'none')}.`,
    ),
    element: {
      type: 'checkboxes',
      action_id: INPUT_ACTION_ID,
      options: kind.choices.map(choiceOption),
      ...(initial.length > 0 ? { initial_options: initial } : {}),
    },
  };
}

/** Two time pickers, the range's start and its end (`off` leaves both empty). */
function rangeInputs(base: InputBase, key: SettingKey, value: string): KnownBlock[] {
  const [from, to] = value === 'off' ? [] : value.split('-');
  return [
    {
      ...base,
      optional: true,
      hint: plain('Leave both empty for no quiet hours.'),
      element: {
        type: 'timepicker',
        action_id: INPUT_ACTION_ID,
        ...(from ? { initial_time: from } : {}),
      },
    },
    {
      type: 'input',
      block_id: rangeEndBlockId(key),
      optional: true,
      label: plain('Quiet hours end'),
      element: { type: 'timepicker', action_id: INPUT_ACTION_ID, ...(to ? { initial_time: to } : {}) },
    },
  ];
}

/** One field's input block(s), by its kind, filled with `value` (a default left empty). */
function fieldInputs(
  f: SettingField,
  value: string,
  dflt: string,
  settings: AlertSettings,
  defaultTimezone: string,
): KnownBlock[] {
  const base: InputBase = { type: 'input', block_id: fieldBlockId(f.key), label: plain(f.label) };
  switch (f.kind.type) {
    case 'text':
      return [
        {
          ...base,
          optional: true,
          hint: plain(`Default ${shown(dflt, f.kind.unit)}. Leave it empty for the default.`),
          element: {
            type: 'plain_text_input',
            action_id: INPUT_ACTION_ID,
            placeholder: plain(`default ${shown(dflt, f.kind.unit)}, e.g. ${f.kind.example}`),
            ...(value !== dflt ? { initial_value: value.split(',').join(', ') } : {}),
          },
        },
      ];
    case 'choices':
      return [choicesInput(base, f.kind, value, dflt)];
    case 'one': {
      const initial = f.kind.choices.find((c) => c.value === value);
      return [
        {
          ...base,
          ...(f.kind.menu ? {} : { optional: true }),
          element: {
            type: f.kind.menu ? 'static_select' : 'radio_buttons',
            action_id: INPUT_ACTION_ID,
            options: f.kind.choices.map(choiceOption),
            ...(initial ? { initial_option: choiceOption(initial) } : {}),
          },
        },
      ];
    }
    case 'time':
      return [
        {
          ...base,
          optional: true,
          hint: plain(
            f.kind.emptyMeans
              ? `In the subscription's time zone. Leave it empty for ${f.kind.emptyMeans}.`
              : `In the subscription's time zone. Default ${dflt}.`,
          ),
          element: {
            type: 'timepicker',
            action_id: INPUT_ACTION_ID,
            ...(CLOCK.test(value) ? { initial_time: value } : {}),
          },
        },
      ];
    case 'zone':
      return [
        {
          ...base,
          hint: plain('Digests, quiet hours and "mute until" times are read in this zone.'),
          element: timeZoneSelect(INPUT_ACTION_ID, settings.timezone, defaultTimezone),
        },
      ];
    case 'range':
      return rangeInputs(base, f.key, value);
  }
}

/** The form's input blocks, filled with `settings` (a default left empty, its value in the hint). */
export function settingsInputs(settings: AlertSettings, defaultTimezone: string): KnownBlock[] {
  const current = settingsArgValues(settings);
  return SETTINGS_FIELDS.flatMap((f) =>
    fieldInputs(f, current.get(f.key) ?? '', defaultArgs.get(f.key) ?? '', settings, defaultTimezone),
  );
}

function state(values: Values, blockId: string): Record<string, unknown> {
  const v = values[blockId]?.[INPUT_ACTION_ID];
  return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** The field's `key=value` value from the submitted form; '' = not given (the default). */
function fieldValue(f: SettingField, values: Values): { value: string } | { error: string } {
  const s = state(values, fieldBlockId(f.key));
  switch (f.kind.type) {
    case 'text':
      // "80, 90, 100" and "30 %" read like the command's 80,90,100 and 30.
      return {
        value: str(s['value'])
          .replace(/\s*%/g, '')
          .replace(/\s*,\s*/g, ','),
      };
    case 'choices': {
      const picked = Array.isArray(s['selected_options'])
        ? (s['selected_options'] as Array<{ value?: unknown }>).map((o) => str(o.value)).filter(Boolean)
        : [];
      return { value: picked.length > 0 ? picked.join(',') : f.kind.noneValue };
    }
    case 'one':
      return { value: str((s['selected_option'] as { value?: unknown } | null | undefined)?.value) };
    case 'time':
      return { value: str(s['selected_time']) };
    case 'zone': {
      const zone = str((s['selected_option'] as { value?: unknown } | null | undefined)?.value);
      return { value: zone === DEFAULT_ZONE_VALUE ? 'default' : zone };
    }
    case 'range': {
      const from = str(s['selected_time']);
      const to = str(state(values, rangeEndBlockId(f.key))['selected_time']);
      if (from === '' && to === '') return { value: 'off' };
      if (from === '' || to === '') return { error: 'Give both a start and an end, or leave both empty.' };
      if (from === to)
        return { error: 'The end must differ from the start; leave both empty for no quiet hours.' };
      return { value: `${from}-${to}` };
    }
  }
}

type SettingsFormResult =
  | { ok: true; settings: AlertSettings }
  | { ok: false; errors: Record<string, string> };

/** The parser's "crawler-drop: …" without the key the field's label already says. */
const withoutKey = (key: string, error: string): string =>
  error.startsWith(`${key}: `)
    ? `${error.charAt(key.length + 2).toUpperCase()}${error.slice(key.length + 3)}.`
    : `${error}.`;

/**
 * Reads the submitted form over the subscription's settings (`base`): every field's mistake
 * under that field at once, else the settings to save. A setting the form has no field for
 * keeps its stored value.
 */
export function readSettingsForm(
  values: Values,
  base: AlertSettings = DEFAULT_ALERT_SETTINGS,
): SettingsFormResult {
  const errors: Record<string, string> = {};
  const tokens: string[] = [];
  for (const f of SETTINGS_FIELDS) {
    // A form opened before this field existed does not send it: the setting stays as it was
    // (an unticked box would otherwise turn it off without anyone asking).
    if (!(fieldBlockId(f.key) in values)) continue;
    const got = fieldValue(f, values);
    if ('error' in got) {
      // A range's mistakes show under its end, where the person looks last.
      errors[f.kind.type === 'range' ? rangeEndBlockId(f.key) : fieldBlockId(f.key)] = got.error;
      continue;
    }
    const value = got.value === '' ? (defaultArgs.get(f.key) ?? '') : got.value;
    const checked = parseSettingValue(f.key, value);
    if (!checked.ok) errors[fieldBlockId(f.key)] = withoutKey(f.key, checked.error);
    else tokens.push(`${f.key}=${value}`);
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const parsed = parseSettingsArgs(tokens, base);
  if (!parsed.ok) {
    // Only settings that depend on each other get here: the recovery level vs the drop.
    return {
      ok: false,
      errors: {
        [fieldBlockId('crawler-recovery')]: parsed.errors
          .map((e) => withoutKey('crawler-recovery', e))
          .join(' '),
      },
    };
  }
  return { ok: true, settings: parsed.settings };
}

/** The `key=value` pairs of `after` that differ from `before`: what the command would have been. */
export function changedArgs(before: AlertSettings, after: AlertSettings): { now: string; was: string } {
  const was = settingsArgValues(before);
  const pairs = [...settingsArgValues(after)]
    .map(([key, value]) => `${key}=${value}`)
    .filter((p) => was.get(p.slice(0, p.indexOf('='))) !== p.slice(p.indexOf('=') + 1));
  const keys = pairs.map((p) => p.slice(0, p.indexOf('=')));
  return { now: pairs.join(' '), was: keys.map((k) => `${k}=${was.get(k)}`).join(' ') };
}

/** Above the inputs: what the form changes and where. */
export function settingsIntro(brand: Mrkdwn): Mrkdwn {
  return mrkdwn`Alert settings for *${brand}* in this channel. Empty fields use the default shown under them.`;
}
