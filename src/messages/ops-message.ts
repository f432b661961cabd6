/**
 * What the bot says about its own trouble in SLACK_OPS_CHANNEL (docs/alert-semantics.md: key rejected,
 * daily quota spent, jobs failing): once when it starts, once when it clears. Pure.
 */
import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import type { KnownBlock } from './block-kit-types.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDate, trimMrkdwn } from './mrkdwn.js';
import { truncateMrkdwn, truncatePlain } from './truncate-mrkdwn.js';

interface OpsReport {
  /** Health flag key: `key_rejected`, `quota_spent`, `job_failing:<job>`. */
  flag: string;
  event: 'raised' | 'cleared';
  detail: string | null;
  atMs: number;
}

export const OPS_METADATA_EVENT = 'visibility_ops';

const WHAT: Readonly<Record<string, { problem: string; action: string }>> = {
  key_rejected: {
    problem: 'The Brand Visibility API rejected the API key',
    action: 'Check VISIBILITY_API_KEY; alerts and digests stop until the key works.',
  },
  quota_spent: {
    problem: "The API key's daily request quota is spent",
    action: 'Jobs wait until the quota resets (midnight UTC); commands may fail until then.',
  },
  database_unreachable: {
    problem: 'visibility-bot cannot use its database',
    action:
      'Commands answer that nothing was changed; alerts, digests and deliveries wait and resume by themselves when it answers again. Check the database server (DATABASE_URL) or what holds the SQLite file (DATABASE_PATH).',
  },
};

export function describeFlag(flag: string): { problem: string; action: string } {
  const known = WHAT[flag];
  if (known) return known;
  const job = flag.startsWith('job_failing:') ? flag.slice('job_failing:'.length) : flag;
  return {
    problem: `The ${job} job is failing`,
    action: 'See the logs and `/visibility status`; the job keeps retrying on its schedule.',
  };
}

export function buildOpsMessage(r: OpsReport): { text: Mrkdwn; blocks: KnownBlock[] } {
  const described = describeFlag(r.flag);
  const problem = escapeMrkdwn(described.problem);
  const action = escapeMrkdwn(described.action);
  const detail = r.detail ? escapeMrkdwn(r.detail) : undefined;
  const headline =
    r.event === 'raised' ? mrkdwn`:warning: ${problem}.` : mrkdwn`:white_check_mark: Cleared: ${problem}.`;
  const body = r.event === 'raised' ? [headline, detail, action] : [headline];
  const text = truncatePlain(
    r.event === 'raised'
      ? trimMrkdwn(mrkdwn`visibility-bot: ${problem}. ${detail ?? mrkdwn``}`)
      : mrkdwn`visibility-bot: cleared: ${problem}`,
    L.fallbackText,
  );
  return {
    text,
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: truncateMrkdwn(
            joinMrkdwn(
              body.filter((b): b is Mrkdwn => Boolean(b)),
              mrkdwn`\n`,
            ),
            L.sectionText,
          ),
        },
      },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: mrkdwn`visibility-bot health · \`${escapeMrkdwn(r.flag)}\` · ${escapeMrkdwn(r.event)} ${slackDate(r.atMs)}`,
          },
        ],
      },
    ],
  };
}
