/** The subscribe reply says when alerts come in the subscription's own settings, not the defaults'. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../../../src/alerts/alert-settings.js';
import { whenAlertsCome } from '../../../../src/slack/features/subscriptions/when-alerts-come.js';

describe('whenAlertsCome', () => {
  it('names every condition at the defaults', () => {
    expect(whenAlertsCome(DEFAULT_ALERT_SETTINGS)).toBe(
      "Alerts come when a cited page is lost, a competitor appears on a cited page or a cited page's sentiment falls 20 points or more, when AI crawler visits drop 40 % or more (and recover) and when AI Pages usage passes 80, 90 and 100 %.",
    );
  });

  it('follows the settings given: fewer events, other levels, quiet hours, none at all', () => {
    const custom = {
      ...DEFAULT_ALERT_SETTINGS,
      events: ['lost' as const],
      crawlerDropPct: 30,
      crawlerRecoveryPct: 10,
      aiPagesThresholds: [90, 100],
      quietHours: { start: '22:00', end: '07:00' },
    };
    expect(whenAlertsCome(custom)).toBe(
      'Alerts come when a cited page is lost, when AI crawler visits drop 30 % or more (and recover) and when AI Pages usage passes 90 and 100 %. Quiet hours (22:00–07:00) hold them until they end.',
    );
    expect(whenAlertsCome({ ...DEFAULT_ALERT_SETTINGS, events: [], aiPagesThresholds: [] })).toBe(
      'Alerts come when AI crawler visits drop 40 % or more (and recover).',
    );
  });
});
