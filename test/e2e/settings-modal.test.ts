/**
 * Forms instead of syntax (issue 11): `settings` opens the settings form through the local
 * Slack; a mistake comes back under its field and nothing is saved; a valid form saves,
 * tells the channel who changed what (and how to put it back) and tells the person what
 * changed. `subscriptions` lists each subscription with Edit (the same form), Mute (a
 * duration in words) and Unsubscribe (behind a confirm dialog), each with its channel
 * note. The real service, the simulator and the local Slack, over HTTP.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { type StoredView, validateBlocks } from '../../src/dev/local-slack/index.js';
import { acme, HOUR_MS, messageText, northwind, useAlertsHarness } from './alerts-harness.js';

const USER = 'U0LOCALUSR';
const CALLBACK = 'vis:settings:save';
const h = useAlertsHarness();

type Values = Record<string, Record<string, unknown>>;
type Block = Record<string, unknown>;

const subOf = (channel: string, brandId = acme.id) => h.deps.store.subscriptions.get(channel, brandId);

/** The settings form open now (the newest), checked against Slack's block rules. */
async function openForm(): Promise<StoredView> {
  const view = await h.slack.waitFor(
    () =>
      h.slack
        .views()
        .filter((v) => v.callback_id === CALLBACK && !v.closed)
        .at(-1),
    5000,
  );
  expect(validateBlocks(view.blocks, 'modal')).toBeUndefined();
  return view;
}

/** What Slack submits for a form nobody touched: every input with its initial value. */
function initialValues(view: StoredView): Values {
  const values: Values = {};
  for (const b of view.blocks as Block[]) {
    if (b['type'] !== 'input') continue;
    const el = b['element'] as Block;
    const state: Block = { type: el['type'] };
    if (el['type'] === 'plain_text_input') state['value'] = el['initial_value'] ?? null;
    if (el['type'] === 'timepicker') state['selected_time'] = el['initial_time'] ?? null;
    if (el['type'] === 'static_select') state['selected_option'] = el['initial_option'] ?? null;
    if (el['type'] === 'checkboxes') state['selected_options'] = el['initial_options'] ?? [];
    values[String(b['block_id'])] = { [String(el['action_id'])]: state };
  }
  return values;
}

/** The form's values with some inputs changed, as the person would leave them. */
function edited(view: StoredView, changes: Record<string, Block>): Values {
  const values = initialValues(view);
  for (const [blockId, state] of Object.entries(changes)) {
    const actionId = Object.keys(values[blockId]!)[0]!;
    values[blockId] = { [actionId]: { ...values[blockId]![actionId]!, ...state } };
  }
  return values;
}

const inputBlock = (view: StoredView, blockId: string) =>
  (view.blocks as Block[]).find((b) => b['block_id'] === blockId)!;

/** The notes in `channel` once there are `count`. */
const notesUntil = (channel: string, count: number) =>
  h.slack.waitFor(() => {
    const n = h.notes(channel);
    return n.length >= count && n;
  }, 5000);

describe('the settings form', () => {
  it('opens from `settings`, shows each default, refuses a mistake under its field, then saves and tells the channel', async () => {
    const ch = h.channel('CFORM');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    await h.command('settings "Acme Analytics" crawler-drop=50', ch);
    const opened = h.slack.callsTo('views.open').length;

    const shown = await h.command('settings', ch);
    // The settings are still shown as text, custom values marked as such.
    expect(shown.text).toContain('Acme Analytics');
    expect(messageText({ text: shown.text, blocks: shown.blocks } as never)).toContain(
      'fall 50 % or more week over week _(custom)_',
    );
    expect(JSON.stringify(shown.blocks)).not.toContain('(changed)');
    expect(h.slack.callsTo('views.open')).toHaveLength(opened + 1);

    const view = await openForm();
    expect(JSON.parse(view.private_metadata)).toEqual({ brandId: acme.id, channelId: ch });
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('Acme Analytics');
    // Each threshold says its default; a custom value is filled in, a default left empty.
    expect(inputBlock(view, 'settings_crawler-drop')).toMatchObject({
      hint: { text: 'Default 40 %. Leave it empty for the default.' },
      element: { initial_value: '50' },
    });
    expect(inputBlock(view, 'settings_sentiment-drop')).toMatchObject({
      hint: { text: 'Default 20 points. Leave it empty for the default.' },
    });
    expect(
      (inputBlock(view, 'settings_sentiment-drop')['element'] as Block)['initial_value'],
    ).toBeUndefined();
    expect(inputBlock(view, 'settings_ai-pages')).toMatchObject({
      hint: { text: 'Default 80, 90, 100 %. Leave it empty for the default.' },
    });
    // The time zone select: grouped (at most 100 options a group), the default first.
    const zone = inputBlock(view, 'settings_tz')['element'] as {
      option_groups: Array<{ label: { text: string }; options: Array<{ value: string }> }>;
      initial_option: { value: string };
    };
    expect(zone.initial_option.value).toBe('default');
    for (const g of zone.option_groups) expect(g.options.length).toBeLessThanOrEqual(100);
    const zones = zone.option_groups.flatMap((g) => g.options.map((o) => o.value));
    expect(zones).toEqual(expect.arrayContaining(['UTC', 'Europe/Berlin', 'America/New_York']));
    // Which feed events alert: checkboxes, all ticked by default.
    expect(
      ((inputBlock(view, 'settings_events')['element'] as Block)['initial_options'] as Block[]).map(
        (o) => o['value'],
      ),
    ).toEqual(['lost', 'competitor', 'sentiment']);
    expect(inputBlock(view, 'settings_digest')).toMatchObject({
      element: { type: 'timepicker', initial_time: '09:00' },
    });

    // Mistakes: each under its own field, the form stays open, nothing saved, nobody told.
    const bad = await h.slack.viewSubmission(h.appUrl, {
      callbackId: CALLBACK,
      viewId: view.id,
      values: edited(view, {
        'settings_crawler-drop': { value: 'lots' },
        settings_quiet: { selected_time: '22:00' },
      }),
    });
    expect(bad.json).toEqual({
      response_action: 'errors',
      errors: {
        'settings_crawler-drop': '"lots" must be a whole percentage from 1 to 100.',
        settings_quiet_end: 'Give both a start and an end, or leave both empty.',
      },
    });
    expect(h.slack.view(view.id)!.closed).toBe(false);
    expect((await subOf(ch))!.settings.crawlerDropPct).toBe(50);
    expect(h.notes(ch)).toHaveLength(2);

    // A drop the recovery level is not below: said under the recovery field.
    const crossed = await h.slack.viewSubmission(h.appUrl, {
      callbackId: CALLBACK,
      viewId: view.id,
      values: edited(view, { 'settings_crawler-drop': { value: '15' } }),
    });
    expect(crossed.json).toMatchObject({
      response_action: 'errors',
      errors: { 'settings_crawler-recovery': expect.stringContaining('must be below crawler-drop (15)') },
    });
    expect((await subOf(ch))!.settings.crawlerDropPct).toBe(50);

    // Valid: saved, the form closes, the channel is told who changed what and how to undo it.
    const ok = await h.slack.viewSubmission(h.appUrl, {
      callbackId: CALLBACK,
      viewId: view.id,
      values: edited(view, {
        'settings_crawler-drop': { value: '25 %' },
        'settings_ai-pages': { value: '75, 95' },
        settings_tz: {
          selected_option: { text: { type: 'plain_text', text: 'Berlin' }, value: 'Europe/Berlin' },
        },
        settings_events: { selected_options: [{ value: 'lost' }] },
        settings_quiet: { selected_time: '22:00' },
        settings_quiet_end: { selected_time: '07:00' },
        settings_weekly: { selected_options: [{ value: 'on' }] },
        'settings_weekly-day': {
          selected_option: { text: { type: 'plain_text', text: 'Friday' }, value: 'friday' },
        },
      }),
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('');
    expect(h.slack.view(view.id)!.closed).toBe(true);
    expect((await subOf(ch))!.settings).toEqual({
      ...DEFAULT_ALERT_SETTINGS,
      events: ['lost'],
      crawlerDropPct: 25,
      aiPagesThresholds: [75, 95],
      timezone: 'Europe/Berlin',
      quietHours: { start: '22:00', end: '07:00' },
      weekly: true,
      weeklyDay: 'friday',
    });
    const notes = await notesUntil(ch, 3);
    const note = messageText(notes.at(-1)!);
    expect(notes.at(-1)!.via).toBe('chat.postMessage');
    expect(note).toContain(`<@${USER}> changed this channel's alert settings for *Acme Analytics*`);
    for (const change of [
      '*Citation alerts*: cited pages lost, competitors on cited pages, sentiment drops → cited pages lost',
      '*Crawler drop*: 50 % → 25 %',
      '*AI Pages usage*: 80, 90 and 100 % → 75 and 95 %',
      "*Time zone*: UTC (the bot's default) → Europe/Berlin",
      '*Quiet hours*: none → 22:00–07:00',
      '*Weekly summary*: off → Fridays at 09:00 (the digest time)',
    ]) {
      expect(note).toContain(change);
    }
    expect(note).toContain(
      '`/visibility settings \\"Acme Analytics\\" events=lost,competitor,sentiment crawler-drop=50 ai-pages=80,90,100 tz=default quiet=off weekly=off weekly-day=monday` puts them back',
    );
    // The person is told, privately, what just changed: before → after.
    const told = await h.slack.waitFor(
      () => h.slack.ephemeralMessages(USER).find((m) => m.channel === ch && m.via === 'chat.postEphemeral'),
      5000,
    );
    const confirmation = messageText(told);
    expect(confirmation).toContain('Updated the alert settings for *Acme Analytics*');
    expect(confirmation).toContain('*Crawler drop*: 50 % → 25 %');
    expect(confirmation).toContain("*Time zone*: UTC (the bot's default) → Europe/Berlin");
    expect(confirmation).toContain('*Quiet hours*: none → 22:00–07:00');
    // Only what changed is stated as a change (before → after).
    expect(confirmation).not.toMatch(/\*Sentiment drop\*: [^\n]*→/);
    expect((await h.deps.auditLog.recent(1))[0]).toMatchObject({
      userId: USER,
      channelId: ch,
      brandId: acme.id,
      action: 'change alert settings',
      result: 'ok',
      detail: { via: 'form' },
    });
  });

  it('unticking the digest chart stores digest-chart=off, and ticking it puts it back on', async () => {
    const ch = h.channel('CFORMCHART');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    await h.command('settings', ch);
    const view = await openForm();
    const row = inputBlock(view, 'settings_digest-chart');
    expect(row).toMatchObject({
      label: { text: 'Digest chart' },
      hint: { text: 'Default: a chart of the last 7 days after each digest.' },
      element: { type: 'checkboxes' },
    });
    expect(((row['element'] as Block)['initial_options'] as Block[]).map((o) => o['value'])).toEqual(['on']);
    expect((await subOf(ch))!.settings.digestChart).toBe(true);

    const off = await h.slack.viewSubmission(h.appUrl, {
      callbackId: CALLBACK,
      viewId: view.id,
      values: edited(view, { 'settings_digest-chart': { selected_options: [] } }),
    });
    expect(off.status).toBe(200);
    expect((await subOf(ch))!.settings).toEqual({ ...DEFAULT_ALERT_SETTINGS, digestChart: false });
    // The subscribe note, then the change.
    const notes = await notesUntil(ch, 2);
    expect(messageText(notes.at(-1)!)).toContain('*Digest chart*: on → off');
    // Reopened, the form shows it off; ticking it again turns it back on.
    await h.command('settings', ch);
    const again = await h.slack.waitFor(() => {
      const v = h.slack
        .views()
        .filter((x) => x.callback_id === CALLBACK && !x.closed)
        .at(-1);
      return v && v.id !== view.id && v;
    }, 5000);
    expect(
      (inputBlock(again, 'settings_digest-chart')['element'] as Block)['initial_options'],
    ).toBeUndefined();
    await h.slack.viewSubmission(h.appUrl, {
      callbackId: CALLBACK,
      viewId: again.id,
      values: edited(again, { 'settings_digest-chart': { selected_options: [{ value: 'on' }] } }),
    });
    expect((await subOf(ch))!.settings).toEqual(DEFAULT_ALERT_SETTINGS);
  });

  it('emptying a field puts its default back', async () => {
    const ch = h.channel('CFORMDEF');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    await h.command('settings "Acme Analytics" sentiment-drop=35', ch);
    await h.command('settings', ch);
    const view = await openForm();
    expect(inputBlock(view, 'settings_sentiment-drop')).toMatchObject({ element: { initial_value: '35' } });
    await h.slack.viewSubmission(h.appUrl, {
      callbackId: CALLBACK,
      viewId: view.id,
      values: edited(view, { 'settings_sentiment-drop': { value: '' } }),
    });
    expect((await subOf(ch))!.settings).toEqual(DEFAULT_ALERT_SETTINGS);
    const notes = await notesUntil(ch, 3);
    expect(messageText(notes.at(-1)!)).toContain('*Sentiment drop*: 35 points → 20 points');
    expect(messageText(notes.at(-1)!)).toContain(
      '`/visibility settings \\"Acme Analytics\\" sentiment-drop=35`',
    );
  });

  it('`settings --show` and typed changes answer as before, without a form', async () => {
    const ch = h.channel('CFORMSHOW');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    const opened = h.slack.callsTo('views.open').length;
    const shown = await h.command('settings "Acme Analytics" --show', ch);
    expect(shown.text).toContain(
      'Acme Analytics: Alerts on: cited pages lost, competitors on cited pages, sentiment drops of 20 points or more',
    );
    const typed = await h.command('settings "Acme Analytics" crawler-drop=30', ch);
    expect(typed.text).toContain('Updated');
    expect(JSON.stringify(typed.blocks)).toContain('*Crawler drop*: 40 % → 30 %');
    expect(h.slack.callsTo('views.open')).toHaveLength(opened);
  });

  it('with several subscriptions and no brand, asks which, and the pick opens that brand’s form', async () => {
    const ch = h.channel('CFORMPICK');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    await h.command('subscribe "Northwind Outfitters" alerts', ch);
    const res = await h.slack.slashCommand(h.appUrl, { text: 'settings', channelId: ch });
    const question = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000);
    const body = question.body as { text: string; blocks: Block[] };
    expect(body.text).toContain('Which brand? This channel is subscribed to');
    const before = h.slack.views().length;
    await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:choose-brand',
      responseUrlId: res.responseUrlId,
      selectedOption: northwind.id,
    });
    const view = await h.slack.waitFor(() => h.slack.views().length > before && openForm(), 5000);
    expect(JSON.parse(view.private_metadata)).toEqual({ brandId: northwind.id, channelId: ch });
  });
});

describe('the subscriptions list’s buttons', () => {
  it('Edit opens the form, Mute mutes for a duration in words, Unsubscribe (confirmed) removes: each tells the channel', async () => {
    const ch = h.channel('CSUBBTN');
    await h.command('subscribe "Acme Analytics" alerts', ch);
    const res = await h.slack.slashCommand(h.appUrl, { text: 'subscriptions', channelId: ch });
    const list = (await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000)).body as {
      blocks: Block[];
    };
    // Clicks are on the list, whatever was answered under it since.
    const listTs = h.slack.ephemeralMessages(USER).find((m) => m.responseUrlId === res.responseUrlId)!.ts;
    const row = list.blocks.find((b) => b['block_id'] === `vis:subs:${acme.id}`)!;
    const elements = row['elements'] as Block[];
    expect(elements.map((e) => e['action_id'])).toEqual([
      'vis:settings:edit',
      'vis:subs:mute',
      'vis:subs:unsubscribe',
    ]);
    expect((elements[1]!['options'] as Array<{ value: string }>).map((o) => o.value)).toContain('4 hours');
    expect(elements[2]!['confirm']).toMatchObject({
      confirm: { text: 'Unsubscribe' },
      deny: { text: 'Keep it' },
    });
    expect(JSON.stringify(list.blocks)).toContain('"action_id":"vis:share"');

    // Edit: the same form, for that brand.
    const before = h.slack.views().length;
    await h.slack.blockAction(h.appUrl, { actionId: 'vis:settings:edit', responseUrlId: res.responseUrlId });
    const view = await h.slack.waitFor(() => h.slack.views().length > before && openForm(), 5000);
    expect(JSON.parse(view.private_metadata)).toEqual({ brandId: acme.id, channelId: ch });

    // Mute for 4 hours.
    const now = h.deps.clock.now();
    await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:subs:mute',
      responseUrlId: res.responseUrlId,
      messageTs: listTs,
      selectedOption: '4 hours',
    });
    const muted = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[1], 5000);
    expect((muted.body as { text: string }).text).toContain('muted for 4 hours, until <!date^');
    const until = (await subOf(ch))!.mutedUntilMs!;
    expect(until - now).toBeGreaterThanOrEqual(4 * HOUR_MS);
    expect(until - h.deps.clock.now()).toBeLessThanOrEqual(4 * HOUR_MS);
    let notes = await notesUntil(ch, 2);
    expect(messageText(notes.at(-1)!)).toContain(
      `<@${USER}> muted alerts for *Acme Analytics* in this channel for 4 hours`,
    );
    // The list clicked now says so.
    const listNow = () => h.slack.ephemeralMessages(USER).find((m) => m.ts === listTs)!;
    await h.slack.waitFor(() => messageText(listNow()).includes(':no_bell: *Muted* until'), 5000);

    // Unsubscribe (Slack asked to confirm before sending the click).
    await h.slack.blockAction(h.appUrl, {
      actionId: 'vis:subs:unsubscribe',
      responseUrlId: res.responseUrlId,
      messageTs: listTs,
    });
    const gone = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[3], 5000);
    expect((gone.body as { text: string }).text).toContain(
      'This channel no longer gets alerts or digests for *Acme Analytics*',
    );
    expect(await subOf(ch)).toBeNull();
    notes = await notesUntil(ch, 3);
    expect(messageText(notes.at(-1)!)).toContain(`<@${USER}> unsubscribed this channel`);
    await h.slack.waitFor(() => messageText(listNow()).includes('This channel has no subscriptions'), 5000);
  });
});
