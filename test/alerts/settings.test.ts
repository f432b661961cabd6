import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alertSettingsSchema,
  DEFAULT_ALERT_SETTINGS,
  resolveAlertSettings,
} from '../../src/alerts/alert-settings.js';
import {
  describeSettingChanges,
  describeSettings,
  formatSettings,
  formatSettingsArgs,
} from '../../src/alerts/format-settings.js';
import { parseSettingsArgs } from '../../src/alerts/parse-settings-args.js';

const ok = (input: string, base = DEFAULT_ALERT_SETTINGS) => {
  const r = parseSettingsArgs(input, base);
  if (!r.ok) throw new Error(`expected ok, got ${r.errors.join('; ')}`);
  return r;
};
const errors = (input: string) => {
  const r = parseSettingsArgs(input);
  if (r.ok) throw new Error('expected errors');
  return r.errors;
};

describe('DEFAULT_ALERT_SETTINGS', () => {
  it('matches docs/alert-semantics.md', () => {
    expect(DEFAULT_ALERT_SETTINGS).toEqual({
      events: ['lost', 'competitor', 'sentiment'],
      sentimentDrop: 20,
      crawlerDropPct: 40,
      crawlerRecoveryPct: 20,
      aiPagesThresholds: [80, 90, 100],
      modelAlerts: false,
      digestTime: '09:00',
      digestChart: true,
      charts: 'native',
      timezone: null,
      quietHours: null,
      weekly: false,
      weeklyDay: 'monday',
      weeklyTime: null,
    });
  });

  it('is what the schema fills in for empty settings, field for field and in the same order', () => {
    const parsed = alertSettingsSchema().parse({});
    expect(DEFAULT_ALERT_SETTINGS).toStrictEqual(parsed);
    expect(JSON.stringify(DEFAULT_ALERT_SETTINGS)).toBe(JSON.stringify(parsed));
    expect(Object.isFrozen(DEFAULT_ALERT_SETTINGS)).toBe(true);
  });

  it('stored partial or broken JSON reads back with defaults', () => {
    expect(resolveAlertSettings({ crawlerDropPct: 50 })).toEqual({
      ...DEFAULT_ALERT_SETTINGS,
      crawlerDropPct: 50,
    });
    expect(resolveAlertSettings({ crawlerDropPct: 'lots' })).toEqual(DEFAULT_ALERT_SETTINGS);
    expect(resolveAlertSettings(null)).toEqual(DEFAULT_ALERT_SETTINGS);
  });

  it('the schema rejects an unknown time zone and recovery above drop', () => {
    expect(alertSettingsSchema().safeParse({ timezone: 'Mars/Olympus' }).success).toBe(false);
    expect(alertSettingsSchema().safeParse({ crawlerDropPct: 30, crawlerRecoveryPct: 30 }).success).toBe(
      false,
    );
  });
});

describe('parseSettingsArgs', () => {
  it('parses the full example from the help text', () => {
    const r = ok(
      'ai-pages=80,90,100 crawler-drop=40 sentiment-drop=20 events=lost,competitor,sentiment digest=09:00 tz=Europe/Berlin quiet=22:00-07:00',
    );
    expect(r.settings).toEqual({
      ...DEFAULT_ALERT_SETTINGS,
      timezone: 'Europe/Berlin',
      quietHours: { start: '22:00', end: '07:00' },
    });
    expect(r.changed).toContain('timezone');
  });

  it('changes only what is given, on top of the current settings', () => {
    const base = { ...DEFAULT_ALERT_SETTINGS, quietHours: { start: '22:00', end: '07:00' } };
    const r = ok('crawler-drop=50', base);
    expect(r.settings).toEqual({ ...base, crawlerDropPct: 50 });
    expect(r.changed).toEqual(['crawlerDropPct']);
  });

  it('accepts friendly spellings', () => {
    const r = ok(
      'events=lost, sentiment AI-PAGES=90,80,90 digest=8:30 tz=europe/berlin crawler-drop=45% quiet=off',
    );
    expect(r.settings.events).toEqual(['lost', 'sentiment']);
    expect(r.settings.aiPagesThresholds).toEqual([80, 90]);
    expect(r.settings.digestTime).toBe('08:30');
    expect(r.settings.timezone).toBe('Europe/Berlin');
    expect(r.settings.crawlerDropPct).toBe(45);
    expect(r.settings.quietHours).toBeNull();
  });

  it('supports none/off/default values', () => {
    const base = { ...DEFAULT_ALERT_SETTINGS, timezone: 'Asia/Tokyo' };
    const r = ok('events=none ai-pages=off tz=default', base);
    expect(r.settings.events).toEqual([]);
    expect(r.settings.aiPagesThresholds).toEqual([]);
    expect(r.settings.timezone).toBeNull();
  });

  it('accepts an array of argument tokens', () => {
    expect(parseSettingsArgs(['crawler-drop=30', 'crawler-recovery=10']).ok).toBe(true);
  });

  it('reports every problem at once, each naming the setting', () => {
    const errs = errors('crawler-drop=abc tz=Mars/Olympus quiet=22-07 colour=blue digest=25:00 loud');
    expect(errs).toHaveLength(6);
    expect(errs[0]).toMatch(/^crawler-drop: "abc" must be a whole percentage from 1 to 100/);
    expect(errs[1]).toMatch(/^tz: "Mars\/Olympus" is not a time zone\. Give a city such as Berlin/);
    expect(errs[2]).toMatch(/^quiet: "22-07" must be START-END as HH:MM-HH:MM/);
    expect(errs[3]).toMatch(/^"colour" is not a setting; the settings are events, sentiment-drop/);
    expect(errs[4]).toMatch(/^digest: "25:00" must be a time of day as HH:MM/);
    expect(errs[5]).toMatch(/^"loud" is not key=value/);
  });

  it('explains bounds and conflicts', () => {
    expect(errors('sentiment-drop=0')[0]).toMatch(/1 to 100/);
    expect(errors('ai-pages=80,120')[0]).toMatch(/^ai-pages: "120"/);
    expect(errors('events=lost,spam')[0]).toMatch(/^events: "spam" is not an event/);
    expect(errors('quiet=07:00-07:00')[0]).toMatch(/must differ/);
    expect(errors('crawler-drop=15')[0]).toMatch(/crawler-recovery \(20\) must be below crawler-drop \(15\)/);
    expect(errors('crawler-drop=40 crawler-drop=50')[0]).toMatch(/given twice/);
    expect(errors('digest=')[0]).toMatch(/^digest has no value; for example digest=09:00/);
  });

  it('takes a time zone by its city, in any case and of several words, and suggests the closest', () => {
    expect(ok('tz=Berlin').settings.timezone).toBe('Europe/Berlin');
    expect(ok('tz=europe/berlin').settings.timezone).toBe('Europe/Berlin');
    expect(ok('tz=new york digest=08:30').settings).toMatchObject({
      timezone: 'America/New_York',
      digestTime: '08:30',
    });
    // Renamed cities by the name people use now (the runtime lists the old one).
    expect(ok('tz=Kyiv').settings.timezone).toBe('Europe/Kyiv');
    expect(ok('tz=default').settings.timezone).toBeNull();
    expect(errors('tz=Berlim')).toEqual([
      'tz: "Berlim" is not a time zone. Did you mean Berlin (Europe/Berlin), Belem (America/Belem) or Belize (America/Belize)? Give a city such as Berlin, or a zone name such as Europe/Berlin or UTC',
    ]);
  });

  it('an empty argument list changes nothing', () => {
    const r = ok('  ');
    expect(r.settings).toEqual(DEFAULT_ALERT_SETTINGS);
    expect(r.changed).toEqual([]);
  });
});

describe('formatSettings', () => {
  it('formatSettingsArgs prints what the parser reads back (round trip)', () => {
    const arb = fc.record({
      events: fc.subarray(['lost', 'competitor', 'sentiment'] as const),
      sentimentDrop: fc.integer({ min: 1, max: 100 }),
      crawlerDropPct: fc.integer({ min: 2, max: 100 }),
      recoveryShare: fc.double({ min: 0, max: 0.99, noNaN: true }),
      aiPagesThresholds: fc.uniqueArray(fc.integer({ min: 1, max: 100 }), { maxLength: 10 }),
      digestTime: fc.constantFrom('00:00', '09:00', '23:59', '07:30'),
      timezone: fc.constantFrom(null, 'UTC', 'Europe/Berlin', 'America/New_York'),
      quietHours: fc.constantFrom(null, { start: '22:00', end: '07:00' }, { start: '12:00', end: '13:30' }),
    });
    fc.assert(
      fc.property(arb, ({ recoveryShare, ...rest }) => {
        const settings = alertSettingsSchema().parse({
          ...rest,
          crawlerRecoveryPct: Math.floor(rest.crawlerDropPct * recoveryShare),
        });
        const r = parseSettingsArgs(formatSettingsArgs(settings), DEFAULT_ALERT_SETTINGS);
        expect(r.ok && r.settings).toEqual(settings);
      }),
    );
  });

  it('prints the defaults as the documented command line', () => {
    expect(formatSettingsArgs(DEFAULT_ALERT_SETTINGS)).toBe(
      'events=lost,competitor,sentiment sentiment-drop=20 crawler-drop=40 crawler-recovery=20 ai-pages=80,90,100 model-alerts=off digest=09:00 digest-chart=on charts=native tz=default quiet=off weekly=off weekly-day=monday weekly-time=digest',
    );
  });

  it('readable lines name each setting in words, without the command syntax, and mark values other than the defaults as custom', () => {
    const lines = formatSettings(
      { ...DEFAULT_ALERT_SETTINGS, crawlerDropPct: 50, quietHours: { start: '22:00', end: '07:00' } },
      { defaultTimezone: 'UTC' },
    );
    expect(lines).toHaveLength(13);
    expect(lines.find((l) => l.startsWith('• *Weekly summary*: '))).toBe('• *Weekly summary*: off');
    const line = (label: string) => lines.find((l) => l.startsWith(`• *${label}*: `));
    expect(line('AI model alerts')).toContain('off (turn on to hear when an AI model stops citing you)');
    expect(line('Digest chart')).toContain('chart of the last 7 days');
    expect(line('Charts')).toBe(
      '• *Charts*: drawn by Slack in the message (as images where Slack cannot draw them)',
    );
    expect(line('Crawler drop')).toMatch(/50 % or more.*_\(custom\)_/);
    expect(line('Time zone')).toContain("UTC (the bot's default)");
    expect(line('Quiet hours')).toContain('22:00–07:00');
    expect(line('Citation alerts')).toBe(
      '• *Citation alerts*: cited pages lost, competitors on cited pages, sentiment drops',
    );
    expect(line('Sentiment drop')).toContain('20 points or more');
    expect(line('Crawler alerts')).toBe(
      "• *Crawler alerts*: against the brand's usual range once there are 3 weeks of history, the crawler drop level before",
    );
    expect(lines.join('\n')).not.toContain('changed');
    // The syntax lives in help only: no `key` and no key=value on the screen.
    expect(lines.join('\n')).not.toMatch(/`|=/);
  });

  it('model-alerts=on turns on the model-stopped-citing alerts, said in words and as custom', () => {
    const r = parseSettingsArgs('model-alerts=on');
    expect(r).toMatchObject({ ok: true, changed: ['modelAlerts'], settings: { modelAlerts: true } });
    const on = ok('model-alerts=on').settings;
    expect(formatSettingsArgs(on)).toContain('model-alerts=on');
    expect(formatSettings(on, { defaultTimezone: 'UTC' }).join('\n')).toContain(
      '• *AI model alerts*: alert when an AI model stops citing you (one more API call per brand a day) _(custom)_',
    );
    expect(describeSettings(on, { defaultTimezone: 'UTC' })).toContain('AI models that stop citing you');
    expect(parseSettingsArgs('model-alerts=maybe')).toEqual({
      ok: false,
      errors: ['model-alerts: "maybe" must be on or off, e.g. model-alerts=on'],
    });
  });

  it('charts=image sends charts as images: parsed, shown in words, custom, and as a change', () => {
    const r = parseSettingsArgs('charts=image');
    expect(r).toMatchObject({ ok: true, changed: ['charts'] });
    const images = r.ok ? r.settings : DEFAULT_ALERT_SETTINGS;
    expect(images.charts).toBe('image');
    expect(formatSettingsArgs(images)).toContain('charts=image');
    const line = formatSettings(images, { defaultTimezone: 'UTC' }).find((l) => l.startsWith('• *Charts*'));
    expect(line).toBe('• *Charts*: as images, for Slack apps that do not draw charts yet _(custom)_');
    expect(describeSettings(images, { defaultTimezone: 'UTC' })).toContain('charts as images');
    expect(describeSettingChanges(DEFAULT_ALERT_SETTINGS, images, { defaultTimezone: 'UTC' })).toEqual([
      '• *Charts*: drawn by Slack → as images',
    ]);
    const wrong = parseSettingsArgs('charts=pictures');
    expect(wrong.ok ? [] : wrong.errors).toEqual([
      'charts: "pictures" must be native (drawn by Slack) or image, e.g. charts=image',
    ]);
  });

  it('digest-chart=off turns the digest chart off, shown as text only, custom, and as a change', () => {
    const r = parseSettingsArgs('digest-chart=off');
    expect(r).toMatchObject({ ok: true, changed: ['digestChart'] });
    const off = r.ok ? r.settings : DEFAULT_ALERT_SETTINGS;
    expect(off.digestChart).toBe(false);
    expect(formatSettingsArgs(off)).toContain('digest-chart=off');
    const line = formatSettings(off, { defaultTimezone: 'UTC' }).find((l) =>
      l.startsWith('• *Digest chart*'),
    );
    expect(line).toMatch(/text only.*_\(custom\)_/);
    expect(describeSettingChanges(DEFAULT_ALERT_SETTINGS, off, { defaultTimezone: 'UTC' })).toEqual([
      '• *Digest chart*: on → off',
    ]);
    expect(parseSettingsArgs('digest-chart=on', off)).toMatchObject({
      ok: true,
      settings: { digestChart: true },
    });
    expect(parseSettingsArgs('digest-chart=maybe')).toEqual({
      ok: false,
      errors: ['digest-chart: "maybe" must be on or off, e.g. digest-chart=off'],
    });
  });

  it('weekly=on, weekly-day and weekly-time: typed, shown in words, and reported as changes', () => {
    const r = parseSettingsArgs('weekly=on weekly-day=Fri weekly-time=8:30');
    expect(r).toMatchObject({ ok: true, changed: ['weekly', 'weeklyDay', 'weeklyTime'] });
    const on = r.ok ? r.settings : DEFAULT_ALERT_SETTINGS;
    expect(on).toMatchObject({ weekly: true, weeklyDay: 'friday', weeklyTime: '08:30' });
    expect(formatSettingsArgs(on)).toContain('weekly=on weekly-day=friday weekly-time=08:30');
    const opts = { defaultTimezone: 'UTC' };
    expect(formatSettings(on, opts).find((l) => l.startsWith('• *Weekly summary*'))).toMatch(
      /^• \*Weekly summary\*: Fridays at 08:30: the past 7 days.*with a chart _\(custom\)_$/,
    );
    expect(describeSettings(on, opts)).toContain('; a weekly summary on Fridays at 08:30.');
    expect(describeSettingChanges(DEFAULT_ALERT_SETTINGS, on, opts)).toEqual([
      '• *Weekly summary*: off → Fridays at 08:30',
      '• *Weekly summary day*: Monday → Friday',
      '• *Weekly summary time*: 09:00 (the digest time) → 08:30',
    ]);
    // By default it follows the digest time, and weekly-time=digest puts it back.
    const atDigest = parseSettingsArgs('weekly=yes digest=07:15 weekly-time=digest', on);
    expect(atDigest.ok && formatSettings(atDigest.settings, opts)).toContain(
      "• *Weekly summary*: Fridays at 07:15 (the digest time): the past 7 days' citations lost and won back, alerts and figures, with a chart _(custom)_",
    );
    expect(parseSettingsArgs('weekly=off', on)).toMatchObject({ ok: true, settings: { weekly: false } });
    expect(parseSettingsArgs('weekly=sometimes weekly-day=someday weekly-time=25:00')).toEqual({
      ok: false,
      errors: [
        'weekly: "sometimes" must be on or off, e.g. weekly=on',
        'weekly-day: "someday" must be a day of the week, e.g. weekly-day=monday',
        'weekly-time: "25:00" must be a time of day as HH:MM, e.g. weekly-time=09:00, or digest for the digest time',
      ],
    });
  });

  it('describeSettings says every setting in one sentence of words', () => {
    expect(describeSettings(DEFAULT_ALERT_SETTINGS, { defaultTimezone: 'UTC' })).toBe(
      'Alerts on: cited pages lost, competitors on cited pages, sentiment drops of 20 points or more, ' +
        'AI crawler visits falling 40 % or more (a recovery notice under 20 %) until there are 3 weeks of history, then below their usual range, AI Pages usage at 80, 90 and 100 %; ' +
        "digest at 09:00 UTC (the bot's default) with a chart; no quiet hours.",
    );
    const custom = {
      ...DEFAULT_ALERT_SETTINGS,
      events: ['lost' as const],
      aiPagesThresholds: [],
      digestChart: false,
      timezone: 'Europe/Berlin',
      quietHours: { start: '22:00', end: '07:00' },
      crawlerAlerts: 'threshold' as const,
    };
    expect(describeSettings(custom, { defaultTimezone: 'UTC' })).toBe(
      'Alerts on: cited pages lost, AI crawler visits falling 40 % or more (a recovery notice under 20 %); ' +
        'digest at 09:00 Europe/Berlin, text only; quiet hours 22:00–07:00.',
    );
  });

  it('describeSettingChanges states each change as before → after, in words', () => {
    const before = { ...DEFAULT_ALERT_SETTINGS, crawlerDropPct: 50 };
    const after = {
      ...before,
      crawlerDropPct: 25,
      timezone: 'Europe/Berlin',
      quietHours: { start: '22:00', end: '07:00' },
    };
    expect(describeSettingChanges(before, after, { defaultTimezone: 'UTC' })).toEqual([
      '• *Crawler drop*: 50 % → 25 %',
      "• *Time zone*: UTC (the bot's default) → Europe/Berlin",
      '• *Quiet hours*: none → 22:00–07:00',
    ]);
    expect(describeSettingChanges(after, after, { defaultTimezone: 'UTC' })).toEqual([]);
  });
});

describe('crawler-alerts', () => {
  const opts = { defaultTimezone: 'UTC' };

  it('chooses the rule per subscription; auto is the default and leaves the stored settings as before', () => {
    const r = parseSettingsArgs('crawler-alerts=threshold');
    expect(r).toMatchObject({
      ok: true,
      changed: ['crawlerAlerts'],
      settings: { crawlerAlerts: 'threshold' },
    });
    const threshold = r.ok ? r.settings : DEFAULT_ALERT_SETTINGS;
    expect(formatSettingsArgs(threshold)).toMatch(/ crawler-alerts=threshold( |$)/);
    expect(describeSettings(threshold, opts)).toContain(
      'AI crawler visits falling 40 % or more (a recovery notice under 20 %), AI Pages',
    );
    expect(describeSettingChanges(DEFAULT_ALERT_SETTINGS, threshold, opts)).toEqual([
      '• *Crawler alerts*: auto → threshold',
    ]);
    const back = parseSettingsArgs('crawler-alerts=auto', threshold);
    expect(back.ok && back.settings).toEqual(DEFAULT_ALERT_SETTINGS);
    expect(back.ok && JSON.stringify(back.settings)).not.toContain('crawlerAlerts');
    expect(parseSettingsArgs('crawler-alerts=Range')).toMatchObject({ settings: { crawlerAlerts: 'range' } });
    expect(resolveAlertSettings({ crawlerAlerts: 'range' }).crawlerAlerts).toBe('range');
  });

  it('explains a wrong value with the choices', () => {
    expect(parseSettingsArgs('crawler-alerts=smart')).toEqual({
      ok: false,
      errors: [
        `crawler-alerts: "smart" must be range (the brand's usual range), threshold (the crawler-drop level) or auto`,
      ],
    });
  });
});
