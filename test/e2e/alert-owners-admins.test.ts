/**
 * With SLACK_ADMIN_USERS set, assigning and resolving alerts are admin writes like changing
 * a subscription: someone else's Assign and Resolve are refused with who can, the form does
 * not open, a form submitted anyway resolves nothing, and the refusals are audited.
 */
import { describe, expect, it } from 'vitest';
import { elementOf } from './alert-owners-kit.js';
import { acme, useAlertsHarness } from './alerts-harness.js';

const ADMIN = 'U0ADMIN001';
const OTHER = 'U0OTHER01';
const h = useAlertsHarness({ env: { SLACK_ADMIN_USERS: ADMIN } });

describe('owning alerts when only admins may write', () => {
  it('refuses Assign and Resolve from someone else and changes nothing', async () => {
    h.slack.addUser({ id: OTHER, name: 'other' });
    h.slack.addUser({ id: ADMIN, name: 'admin' });
    const ch = h.channel('COWNADM');
    await h.command('subscribe "Acme Analytics" alerts', ch, ADMIN);
    const [url] = h.sim.control.citationUrls(acme.id);
    h.advanceSnapshot({ lose: [url!] });
    await h.runJobs('citations');
    const alert = await h.slack.waitFor(() => h.posts(ch)[0], 5000);
    const state = await h.slack.waitFor(() => h.deps.store.alertStates.findByMessage(ch, alert.ts), 5000);

    const assign = await h.slack.blockAction(h.appUrl, {
      actionId: String(elementOf(alert, 'vis:alert:assign')!['action_id']),
      selectedUser: OTHER,
      channelId: ch,
      messageTs: alert.ts,
      userId: OTHER,
    });
    const refused = (await h.slack.waitFor(() => h.slack.responsesFor(assign.responseUrlId)[0], 5000))
      .body as {
      text: string;
    };
    expect(refused.text).toContain("Only the bot's admins can assign alerts");
    expect(refused.text).toContain(`<@${ADMIN}>`);

    const resolve = await h.slack.blockAction(h.appUrl, {
      actionId: String(elementOf(alert, 'vis:alert:resolve')!['action_id']),
      channelId: ch,
      messageTs: alert.ts,
      userId: OTHER,
    });
    const refusedResolve = (await h.slack.waitFor(() => h.slack.responsesFor(resolve.responseUrlId)[0], 5000))
      .body as { text: string };
    expect(refusedResolve.text).toContain("Only the bot's admins can resolve alerts");
    expect(h.slack.callsTo('views.open')).toHaveLength(0);

    const forged = await h.slack.viewSubmission(h.appUrl, {
      callbackId: 'vis:alert:resolve-note',
      viewId: 'V0FORGED02',
      userId: OTHER,
      privateMetadata: JSON.stringify({ alertId: state!.id, channelId: ch, ts: alert.ts }),
      values: { note: { value: { type: 'plain_text_input', value: 'done' } } },
    });
    expect(forged.status).toBe(200);

    expect(await h.deps.store.alertStates.get(state!.id)).toMatchObject({
      assigneeId: null,
      resolvedAtMs: null,
      version: state!.version,
    });
    expect(h.notes(ch).filter((n) => /assigned|resolved/.test(n.text ?? ''))).toEqual([]);
    const refusals = (await h.deps.auditLog.recent(10)).filter((e) => e.result === 'refused: not an admin');
    expect(refusals.map((e) => e.action)).toEqual(
      expect.arrayContaining(['assign alerts', 'resolve alerts']),
    );
  });
});
