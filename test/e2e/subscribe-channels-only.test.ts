/**
 * `subscribe` only in channels: in a DM or a group DM the bot's scopes cannot read the
 * conversation's history (the outbox's duplicate check), so alerts there would fail later
 * with missing_scope. The command refuses at once, says why and where to run it instead,
 * and stores nothing; private channels are still welcome.
 */
import { describe, expect, it } from 'vitest';
import { acme, useAlertsHarness } from './alerts-harness.js';

const h = useAlertsHarness();
const stored = (channelId: string) => h.deps.store.subscriptions.get(channelId, acme.id);

describe('subscribe outside channels', () => {
  it('refuses in a direct message, says why and where to go, and stores nothing', async () => {
    const dm = h.channel('D0DIRECT01');
    const reply = await h.command('subscribe "Acme Analytics"', dm);
    expect(reply.text).toContain('Alerts and digests go to channels, not to direct messages or group DMs');
    expect(reply.text).toContain('/invite @visibility-bot');
    expect(await stored(dm)).toBeNull();
    // Refused from the payload alone: no Slack call that would need a scope the bot lacks.
    expect(h.slack.callsTo('conversations.info')).toHaveLength(0);
  });

  it('refuses in a group DM (an mpdm- conversation, whose id starts with G)', async () => {
    const group = h.channel('G0GROUPDM1', 'mpdm-alice--bob--visibility-bot-1');
    const reply = await h.command('subscribe "Acme Analytics" alerts', group);
    expect(reply.text).toContain('not to direct messages or group DMs');
    expect(await stored(group)).toBeNull();
  });

  it('still subscribes a private channel', async () => {
    const priv = h.channel('G0PRIVATE1', 'launch-team');
    const reply = await h.command('subscribe "Acme Analytics"', priv);
    expect(reply.text).not.toContain('direct messages');
    expect(await stored(priv)).toMatchObject({ alerts: true, digest: true });
  });
});
