import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { blockedCrawlerAlert } from '../../src/alerts/blocked-crawler-alert.js';
import { detectCitations } from '../../src/alerts/detect-citations.js';
import { type CrawlerPeriods, crawlersThatFellMost, detectCrawler } from '../../src/alerts/detect-crawler.js';
import {
  detectModelCitations,
  INITIAL_MODEL_STATE,
  type ListedCitation,
  modelsOfUrl,
  recordList,
} from '../../src/alerts/detect-model-citations.js';
import { explainedByBlockedCrawler, explainedByModel, foldAlerts } from '../../src/alerts/fold-alerts.js';
import { groupAlerts } from '../../src/alerts/group-alerts.js';
import type { Alert } from '../../src/alerts/types.js';
import { buildAlertMessage } from '../../src/messages/alert-message.js';
import { BRAND, ev, feed, T0 } from './fixtures.js';

const S = DEFAULT_ALERT_SETTINGS;

/** All text a person sees in the message. */
function textOf(alerts: Alert[]): string {
  const [group] = groupAlerts(alerts);
  return JSON.stringify(buildAlertMessage(group!).blocks);
}

describe('folding: a model that stopped citing explains the pages lost from it', () => {
  const date = (i: number) => `2025-02-${String(20 + i).padStart(2, '0')}`;
  const perplexityPage = 'https://review.example/acme';
  const chatgptPage = 'https://blog.example/acme';
  // Perplexity cites three pages a day, the review among them: a regular, whose two silent
  // days are news (detect-model-citations.ts, MIN_DAILY_PAGES).
  const perplexityPages = [perplexityPage, 'https://one.example/acme', 'https://two.example/acme'];
  const list = (i: number, withPerplexity: boolean): ListedCitation[] => [
    ...(withPerplexity
      ? perplexityPages.map((url) => ({ url, search_model: 'Perplexity', date: date(i) }))
      : []),
    { url: chatgptPage, search_model: 'ChatGPT', date: date(i) },
  ];
  let state = INITIAL_MODEL_STATE;
  const modelAlerts: Alert[] = [];
  for (let i = 0; i < 7; i++) {
    const d = detectModelCitations(recordList(state, list(i, i < 5), true), BRAND, T0);
    state = d.next;
    modelAlerts.push(...d.alerts);
  }
  // The run of day 6 (the second snapshot without Perplexity): the model alert, and the
  // loss the feed lists in the same run.
  const lost = detectCitations(
    new Map(),
    feed([
      ev('lost', perplexityPage, '2025-02-26T05:00:00Z'),
      ev('lost', 'https://other.example/x', '2025-02-26T05:00:00Z'),
    ]),
    S,
    T0,
  ).alerts;

  it('folds the lost page the model cited under it, and leaves the unrelated loss alone', () => {
    expect(modelAlerts.map((a) => a.kind)).toEqual(['model_stopped']);
    const folded = foldAlerts(
      [...lost, ...modelAlerts],
      explainedByModel((u) => modelsOfUrl(state, u)),
    );
    expect(folded.map((a) => a.kind)).toEqual(['citation_lost', 'model_stopped']);
    const cause = folded.find((a) => a.kind === 'model_stopped')!;
    expect(cause.folded?.map((a) => a.subject)).toEqual([perplexityPage]);
    expect(folded.find((a) => a.kind === 'citation_lost')!.subject).toBe('https://other.example/x');
  });

  it('puts cause and symptom in one message, the cause first, and keys the message on all of them', () => {
    const folded = foldAlerts(
      [...lost, ...modelAlerts],
      explainedByModel((u) => modelsOfUrl(state, u)),
    );
    const [group] = groupAlerts(folded);
    expect(group!.alerts[0]!.kind).toBe('model_stopped');
    const text = textOf(folded);
    expect(text).toContain('Perplexity stopped citing Acme Analytics');
    expect(text).toContain('Changes this explains:');
    expect(text).toContain(`Cited page lost: ${perplexityPage}`);
    const [unfolded] = groupAlerts([...lost, ...modelAlerts]);
    expect(group!.key).toBe(unfolded!.key);
  });

  it('with no cause in the run nothing is folded', () => {
    expect(
      foldAlerts(
        lost,
        explainedByModel(() => ['Perplexity']),
      ),
    ).toEqual(lost);
  });
});

describe('folding: an access finding blocking a crawler explains that crawler’s fall', () => {
  const periods: CrawlerPeriods = {
    previous: {
      start: '2025-02-16',
      end: '2025-02-22',
      total: 1000,
      byCrawler: { PerplexityBot: 600, GPTBot: 400 },
    },
    current: {
      start: '2025-02-23',
      end: '2025-03-01',
      total: 420,
      byCrawler: { PerplexityBot: 20, GPTBot: 400 },
    },
  };
  const drop = {
    ...detectCrawler(null, periods, S, BRAND, T0).alerts[0]!,
    crawlers: crawlersThatFellMost(periods).map((m) => m.crawler),
  };

  it('one message: the block, and the fall under it', () => {
    const cause = blockedCrawlerAlert(
      drop,
      [
        {
          title: 'robots.txt blocks PerplexityBot',
          affectedBots: ['PerplexityBot'],
          recommendation: 'Remove the Disallow rule for PerplexityBot from robots.txt.',
        },
        { title: 'llms.txt missing', affectedBots: [], recommendation: null },
      ],
      T0,
    )!;
    expect(cause.title).toBe("PerplexityBot blocked on Acme Analytics's site");
    const folded = foldAlerts([drop, cause], explainedByBlockedCrawler);
    expect(folded).toHaveLength(1);
    expect(folded[0]!.folded).toEqual([drop]);
    const text = textOf(folded);
    expect(text).toContain('robots.txt blocks PerplexityBot');
    expect(text).toContain('AI crawler visits down 58 %');
    expect(text).toContain('Remove the Disallow rule for PerplexityBot');
  });

  it('no cause when the finding blocks a crawler that did not fall', () => {
    expect(
      blockedCrawlerAlert(
        drop,
        [{ title: 'robots.txt blocks CCBot', affectedBots: ['CCBot'], recommendation: null }],
        T0,
      ),
    ).toBeNull();
    expect(blockedCrawlerAlert(drop, [], T0)).toBeNull();
  });
});

describe('why-lines and folded alerts in the message are escaped like the rest', () => {
  it('a page title or competitor name carrying Slack markup stays text', () => {
    const [lost] = detectCitations(
      new Map(),
      feed([ev('lost', 'https://x.example/<!channel>', '2025-03-01T00:00:00Z', { h1: '<!here> *bold*' })]),
      S,
      T0,
    ).alerts;
    const withWhy = { ...lost!, why: ['Competitors now on x.example: <!channel> & <@U123>.'] };
    const cause: Alert = {
      ...withWhy,
      kind: 'model_stopped',
      key: 'model_stopped:x',
      title: '<!everyone> stopped citing',
      model: '<!everyone>',
      folded: [withWhy],
    };
    // What Slack renders (button values are data, not text).
    const [group] = groupAlerts([cause]);
    const text = JSON.stringify(buildAlertMessage(group!).blocks.filter((b) => b.type !== 'actions'));
    expect(text).not.toMatch(/<!channel>|<!here>|<!everyone>|<@U123>/);
    expect(text).toContain('&lt;!channel&gt;');
  });
});
