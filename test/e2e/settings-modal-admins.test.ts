/**
 * With SLACK_ADMIN_USERS set, someone else may read a channel's settings but not change
 * them: `settings` shows them without opening a form, Edit says who can, and a form
 * submitted anyway (an old one, a forged one) saves nothing.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { acme, useAlertsHarness } from './alerts-harness.js';

const ADMIN = 'U0ADMIN001';
const h = useAlertsHarness({ env: { SLACK_ADMIN_USERS: ADMIN } });

describe('settings for someone who is not an admin', () => {
  it('shows them without a form, refuses Edit and refuses a submitted form', async () => {
    const ch = h.channel('CADMINS');
    const subs = h.deps.store.subscriptions;
    await subs.upsert({
      channelId: ch,
      brandId: acme.id,
      brandName: acme.name,
      createdBy: ADMIN,
      createdAtMs: 0,
    });

    const res = await h.slack.slashCommand(h.appUrl, { text: 'settings', channelId: ch });
    const shown = (await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000)).body as {
      text: string;
    };
    expect(shown.text).toContain('Acme Analytics: Alerts on: cited pages lost, competitors on cited pages');
    expect(h.slack.callsTo('views.open')).toHaveLength(0);

    await h.slack.blockAction(h.appUrl, { actionId: 'vis:settings:edit', responseUrlId: res.responseUrlId });
    const refused = (await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[1], 5000)).body as {
      text: string;
    };
    expect(refused.text).toContain("Only the bot's admins can change alert settings");
    expect(h.slack.callsTo('views.open')).toHaveLength(0);

    const forged = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:settings:save',
      viewId: 'V0FORGED01',
      privateMetadata: JSON.stringify({ brandId: acme.id, channelId: ch }),
      values: { 'settings_crawler-drop': { value: { type: 'plain_text_input', value: '5' } } },
    });
    expect(forged.status).toBe(200);
    expect((await subs.get(ch, acme.id))!.settings).toEqual(DEFAULT_ALERT_SETTINGS);
    expect(h.notes(ch)).toEqual([]);
  });
});
