/**
 * The shapes the crawler drawers and the Access tab are made of, recognised by shape, not
 * by key (the payloads are undocumented and their keys differ between versions), each in
 * the words a marketer reads: a verdict as a sentence, a pipeline as a progression
 * ("✓ crawled → ✓ healthy → ✗ cited"), a daily series as totals and a sparkline, problems
 * and findings as "what is wrong → what to do" with their severity as an icon and a word,
 * name–count lists as one line.
 */

import { shortDayText } from '../../../figures/day-text.js';
import { formatCount } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { ownLookup } from '../../../messages/own-lookup.js';
import { codeValueText, fieldName } from '../../../messages/vocabulary.js';
import { isCalendarDate } from '../../../utc-days.js';
import { inlineText } from '../../views/link-or-text.js';
import { sparkline } from '../../views/sparkline.js';
import { isObj, NAME_KEYS, type Obj, proseText } from './payload-values.js';

const stringField = (o: Obj, keys: readonly string[]): [string, string] | undefined => {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string' && v.trim() !== '') return [k, v];
  }
  return undefined;
};
const records = (arr: readonly unknown[]): arr is Obj[] => arr.length > 0 && arr.every(isObj);

// ——— status and severity ————————————————————————————————————————————————

const GOOD = /^(converting|cited|active|ok|healthy|allowed|success|passing|pass|crawling|good|done)$/i;
const MIDDLE = /^(crawled|partial|pending|warning|warn|medium|moderate|limited|degraded)$/i;
const BAD = /^(cold|blocked|error|failed|failing|critical|high|severe|disallowed|denied|broken)$/i;

/** A status as a coloured dot, or nothing when the word is not known. */
function statusIcon(status: string): Mrkdwn {
  const s = status.trim();
  if (GOOD.test(s)) return mrkdwn`:large_green_circle: `;
  if (MIDDLE.test(s)) return mrkdwn`:large_yellow_circle: `;
  if (BAD.test(s)) return mrkdwn`:red_circle: `;
  return mrkdwn``;
}

const SEVERITY_WORDS: Readonly<Record<string, [Mrkdwn, string]>> = {
  critical: [mrkdwn`:red_circle:`, 'Critical'],
  high: [mrkdwn`:red_circle:`, 'High priority'],
  error: [mrkdwn`:red_circle:`, 'Error'],
  medium: [mrkdwn`:large_orange_circle:`, 'Medium priority'],
  warning: [mrkdwn`:large_orange_circle:`, 'Warning'],
  warn: [mrkdwn`:large_orange_circle:`, 'Warning'],
  low: [mrkdwn`:large_blue_circle:`, 'Low priority'],
  info: [mrkdwn`:large_blue_circle:`, 'Note'],
  notice: [mrkdwn`:large_blue_circle:`, 'Note'],
};

/** `high` → ":red_circle: High priority"; an unknown level in words with a white dot. */
function severityText(level: string): Mrkdwn {
  const known = ownLookup(SEVERITY_WORDS, level.trim().toLowerCase());
  if (known) return mrkdwn`${known[0]} ${escapeMrkdwn(known[1])}`;
  return mrkdwn`:white_circle: ${inlineText(codeValueText(level, 'severity'), 30)}`;
}

// ——— verdict —————————————————————————————————————————————————————————————

const HEADLINE_KEYS = ['headline', 'title', 'summary', 'label'];
const DETAIL_KEYS = ['detail', 'details', 'description', 'explanation', 'message', 'reason', 'text'];

/**
 * `{status, headline, detail}` → ":large_green_circle: *Cited and converting.* AI answers
 * cite this page…". A status the headline already says is not repeated.
 */
export function verdictText(o: Obj): Mrkdwn | undefined {
  const head = stringField(o, HEADLINE_KEYS);
  const detail = stringField(o, DETAIL_KEYS);
  // A headline and its explanation, and little else: a record with a title is not a verdict.
  if (!head || !detail || 'url' in o) return undefined;
  const others = Object.entries(o).filter(
    ([k, v]) => ![head[0], detail[0], 'status', 'state'].includes(k) && v !== null,
  );
  if (others.length > 2 || others.some(([, v]) => typeof v === 'object')) return undefined;
  const status =
    typeof o['status'] === 'string' ? o['status'] : typeof o['state'] === 'string' ? o['state'] : '';
  const headline = proseText(head[1], 200).replace(/[.!?]?$/, (end) => end || '.') as Mrkdwn;
  return mrkdwn`${statusIcon(status)}*${headline}* ${proseText(detail[1], 800)}`;
}

// ——— pipeline ————————————————————————————————————————————————————————————

/** Keys of a stage's name: ordered stages (`stage`, `step`) get arrows, checklists dots. */
const STAGE_KEYS = ['stage', 'step'];
const CHECK_KEYS = ['check', 'name', 'label', 'key'];

const stageName = (stage: string): Mrkdwn => inlineText(fieldName(stage), 40);

/**
 * Stages with a yes/no (`[{stage, reached}]`) → "✓ crawled → ✓ healthy → ✗ cited"; stages
 * with a count (`[{stage, pages}]`) → "crawled 4 → healthy 4 → cited 1 (pages)".
 */
export function pipelineText(arr: readonly unknown[]): Mrkdwn | undefined {
  if (!records(arr) || arr.length < 2 || arr.length > 12) return undefined;
  const ordered = arr.every((s) => stringField(s, STAGE_KEYS));
  const stages = arr.map((s) => {
    const name = stringField(s, ordered ? STAGE_KEYS : CHECK_KEYS);
    const rest = Object.entries(s).filter(([k]) => k !== name?.[0]);
    const flag = rest.find(([, v]) => typeof v === 'boolean');
    const count = rest.find(([, v]) => typeof v === 'number');
    return { name: name?.[1], flag: flag?.[1] as boolean | undefined, count, fields: rest.length };
  });
  if (stages.some((s) => s.name === undefined || s.fields !== 1)) return undefined;
  if (stages.every((s) => s.flag !== undefined)) {
    return joinMrkdwn(
      stages.map((s) => mrkdwn`${s.flag ? mrkdwn`✓` : mrkdwn`✗`} ${stageName(s.name!)}`),
      ordered ? mrkdwn` → ` : mrkdwn` · `,
    );
  }
  if (ordered && stages.every((s) => s.count !== undefined)) {
    const unit = fieldName(stages[0]!.count![0]);
    return mrkdwn`${joinMrkdwn(
      stages.map((s) => mrkdwn`${stageName(s.name!)} ${formatCount(s.count![1] as number)}`),
      mrkdwn` → `,
    )} (${escapeMrkdwn(unit)})`;
  }
  return undefined;
}

// ——— daily series ————————————————————————————————————————————————————————

const DATE_FIELD = /date|day|^at$|_at$/i;

/**
 * `[{date, count}]` → "`▃▅▇█▆` 190 on 29 Oct → 210 on 27 Nov · peak 250 on 12 Nov ·
 * 5,524 in all": the small chart and the figures a reader needs from it.
 */
export function seriesText(arr: readonly unknown[]): Mrkdwn | undefined {
  // A day and its figure (and perhaps its breakdown): not a record that happens to have a date.
  if (!records(arr) || arr.length < 2 || arr.some((p) => Object.keys(p).length > 3)) return undefined;
  const dateKey = Object.keys(arr[0]!).find((k) => DATE_FIELD.test(k));
  const valueKey = Object.keys(arr[0]!).find((k) => typeof arr[0]![k] === 'number');
  if (!dateKey || !valueKey) return undefined;
  const points = arr.map((p) => ({ date: String(p[dateKey] ?? '').slice(0, 10), value: p[valueKey] }));
  const valid = (p: { date: string; value: unknown }) =>
    typeof p.value === 'number' && Number.isFinite(p.value) && isCalendarDate(p.date);
  if (!points.every(valid) || new Set(points.map((p) => p.date)).size !== points.length) return undefined;
  const sorted = [...points].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)) as {
    date: string;
    value: number;
  }[];
  const first = sorted[0]!;
  const last = sorted.at(-1)!;
  const peak = sorted.reduce((a, b) => (b.value > a.value ? b : a));
  const sum = sorted.reduce((n, p) => n + p.value, 0);
  const on = (p: { date: string; value: number }) =>
    mrkdwn`${formatCount(p.value)} on ${escapeMrkdwn(shortDayText(p.date))}`;
  return mrkdwn`\`${sparkline(
    sorted.map((p) => p.value),
    45,
  )}\` ${on(first)} → ${on(last)} · peak ${on(peak)} · ${formatCount(sum)} in all`;
}

// ——— name–count lists ————————————————————————————————————————————————————

/**
 * `[{name: "GPTBot", visits: 713}, …]` → "GPTBot 713 · ClaudeBot 690 · +3 more (visits)":
 * records of exactly one name and one number.
 */
export function namedCountsText(arr: readonly unknown[], max = 6): Mrkdwn | undefined {
  if (!records(arr)) return undefined;
  const pairs = arr.map((r) => {
    const keys = Object.keys(r);
    const name = stringField(r, NAME_KEYS);
    const count = keys.find((k) => typeof r[k] === 'number');
    return keys.length === 2 && name && count ? { name: name[1], count, n: r[count] as number } : undefined;
  });
  if (pairs.some((p) => p === undefined || /^https?:/i.test(p.name))) return undefined;
  const ok = pairs as { name: string; count: string; n: number }[];
  const shown = ok.slice(0, max).map((p) => mrkdwn`${inlineText(p.name, 40)} ${formatCount(p.n)}`);
  const more = ok.length > max ? mrkdwn` · +${formatCount(ok.length - max)} more` : mrkdwn``;
  return mrkdwn`${joinMrkdwn(shown, mrkdwn` · `)}${more} (${escapeMrkdwn(fieldName(ok[0]!.count))})`;
}

// ——— problems and findings ——————————————————————————————————————————————

const SEVERITY_KEYS = ['severity', 'level', 'priority', 'impact'];
const ISSUE_TITLE_KEYS = ['title', 'headline', 'summary', 'name'];
const ISSUE_TEXT_KEYS = ['description', 'message', 'detail', 'details', 'explanation', 'text'];
const REMEDY_KEYS = [
  'recommendation',
  'fix',
  'remedy',
  'remediation',
  'action',
  'how_to_fix',
  'suggestion',
  'next_step',
];
const AFFECTED_KEYS = ['affected_bots', 'bots_affected', 'affected_crawlers', 'crawlers', 'bots', 'affected'];

const URGENCY = [/^(critical|high|error|severe)$/i, /^(medium|warn|warning|moderate)$/i];
const urgency = (issue: Obj) => {
  const level = stringField(issue, SEVERITY_KEYS)?.[1] ?? '';
  const rank = URGENCY.findIndex((r) => r.test(level.trim()));
  return rank === -1 ? URGENCY.length : rank;
};

/** Problems, most urgent first (the service's order within one level). */
export const byUrgency = (issues: readonly Obj[]): Obj[] =>
  issues
    .map((issue, i) => ({ issue, i }))
    .sort((a, b) => urgency(a.issue) - urgency(b.issue) || a.i - b.i)
    .map((x) => x.issue);

/** A list of problems: records that carry a severity and something to read. */
export function isIssueList(arr: readonly unknown[]): arr is Obj[] {
  return (
    records(arr) &&
    arr.every(
      (r) =>
        stringField(r, SEVERITY_KEYS) &&
        (stringField(r, ISSUE_TITLE_KEYS) || stringField(r, ISSUE_TEXT_KEYS)),
    )
  );
}

/** What is wrong, then what to do about it (its own advice, or the Preview fix button). */
export function issueLines(issue: Obj): Mrkdwn[] {
  const severity = severityText(stringField(issue, SEVERITY_KEYS)![1]);
  const title = stringField(issue, ISSUE_TITLE_KEYS);
  const text = stringField(issue, ISSUE_TEXT_KEYS);
  const code = stringField(issue, ['code', 'category', 'type']);
  const head = title
    ? mrkdwn`${severity}: *${proseText(title[1], 200)}*`
    : mrkdwn`${severity}: ${proseText(text?.[1] ?? '', 800)}`;
  const lines = [head];
  if (title && text) lines.push(proseText(text[1], 800));
  else if (!title && code) lines[0] = mrkdwn`${head} _(${inlineText(codeValueText(code[1], code[0]), 40)})_`;
  const remedy = stringField(issue, REMEDY_KEYS);
  const affected = AFFECTED_KEYS.map((k) => issue[k]).find((v) => Array.isArray(v) && v.length > 0) as
    | unknown[]
    | undefined;
  const todo = [
    remedy
      ? proseText(remedy[1], 600)
      : issue['fix_available'] === true
        ? mrkdwn`Preview the fix with its button below.`
        : undefined,
    affected
      ? mrkdwn`Affects ${joinMrkdwn(
          affected.slice(0, 5).map((b) => inlineText(String(b), 40)),
          mrkdwn`, `,
        )}${affected.length > 5 ? mrkdwn` and ${affected.length - 5} more` : mrkdwn``}.`
      : undefined,
  ].filter((p): p is Mrkdwn => p !== undefined);
  if (todo.length > 0) lines.push(mrkdwn`→ ${joinMrkdwn(todo, mrkdwn` `)}`);
  return lines;
}
