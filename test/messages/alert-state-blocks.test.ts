/** The ownership part of an alert message: drawn from the stored state, the same however often. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { detectCitations } from '../../src/alerts/detect-citations.js';
import { groupAlerts } from '../../src/alerts/group-alerts.js';
import { validateBlocks } from '../../src/dev/local-slack/validate-blocks.js';
import { buildAlertMessage } from '../../src/messages/alert-message.js';
import {
  type AlertStateView,
  assigneeCopyBlocks,
  withAlertState,
} from '../../src/messages/alert-state-blocks.js';
import { mrkdwn } from '../../src/messages/mrkdwn.js';
import { ev, feed, T0 } from '../alerts/fixtures.js';

/** Two lost pages of one brand, grouped as the jobs group them. */
const alertGroup = () =>
  groupAlerts(
    detectCitations(
      new Map(),
      feed([
        ev('lost', 'https://a.example/one', '2025-03-01T00:00:00Z'),
        ev('lost', 'https://a.example/two', '2025-03-01T00:00:00Z'),
      ]),
      DEFAULT_ALERT_SETTINGS,
      T0,
    ).alerts,
  )[0]!;

const open: AlertStateView = {
  id: 7,
  assigneeId: null,
  assignedBy: null,
  assignedAtMs: null,
  resolvedBy: null,
  resolvedAtMs: null,
  resolveNote: null,
  earlier: null,
};

const ids = (blocks: unknown[]) =>
  (blocks as Array<{ elements?: Array<{ action_id?: string }> }>).flatMap((b) =>
    (b.elements ?? []).map((e) => e.action_id),
  );

describe('withAlertState', () => {
  it('draws the owner, the resolution with its note escaped, and stays the same when drawn again', () => {
    const posted = buildAlertMessage(alertGroup()).blocks;
    const resolved: AlertStateView = {
      ...open,
      assigneeId: 'U0MAYA',
      assignedBy: 'U0SAM',
      assignedAtMs: 1_000,
      resolvedBy: 'U0SAM',
      resolvedAtMs: 2_000,
      resolveNote: 'fixed <!channel> & done',
      earlier: {
        postedAtMs: 500,
        permalink: 'https://x.slack.com/archives/C1/p1',
        resolvedBy: null,
        resolveNote: null,
      },
    };
    const once = withAlertState(posted, resolved);
    expect(withAlertState(once, resolved)).toEqual(once);
    const text = JSON.stringify(once);
    expect(text).toContain('Assigned to <@U0MAYA> by <@U0SAM>');
    expect(text).toContain('“fixed &lt;!channel&gt; &amp; done”');
    expect(text).not.toContain('<!channel>');
    expect(text).toContain(
      '(<https://x.slack.com/archives/C1/p1|see the earlier alert>); it was not resolved',
    );
    expect(ids(once)).toContain('vis:alert:reopen:7');
    expect(ids(once).some((id) => id?.startsWith('vis:alert:resolve'))).toBe(false);
    expect(validateBlocks(once, 'message')).toBeUndefined();
    // Reopened: the controls and the lines follow the state back.
    const reopened = withAlertState(once, {
      ...resolved,
      resolvedBy: null,
      resolvedAtMs: null,
      resolveNote: null,
    });
    expect(ids(reopened)).toEqual(expect.arrayContaining(['vis:alert:assign:7', 'vis:alert:resolve:7']));
    expect(JSON.stringify(reopened)).not.toContain('Resolved by');
  });

  it('the assignee copy keeps only what acts on the alert itself', () => {
    const drawn = withAlertState(buildAlertMessage(alertGroup()).blocks, {
      ...open,
      assigneeId: 'U0MAYA',
      assignedBy: 'U0SAM',
    });
    const copy = assigneeCopyBlocks(drawn, mrkdwn`intro`);
    const actions = ids(copy).filter(Boolean);
    expect(actions.every((id) => /^vis:(alert:(assign|resolve|reopen)|open:)/.test(id!))).toBe(true);
    expect(actions).toContain('vis:alert:resolve:7');
    expect(validateBlocks(copy, 'message')).toBeUndefined();
  });
});
