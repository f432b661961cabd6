/** `/visibility help`: built from the registry, so every new subcommand shows up by itself. */

import { GLOSSARY } from '../../../figures/glossary.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { subcommandGroups } from '../../commands/subcommand.js';
import { chunkSections } from '../../views/chunk-sections.js';

const code = (s: string) => mrkdwn`\`${escapeMrkdwn(s)}\``;

export function helpOverviewReply(subcommands: readonly Subcommand[]): Reply {
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: mrkdwn`Brand Visibility in Slack` } },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: mrkdwn`Type \`/visibility &lt;subcommand&gt;\`. Brand names can be quoted ("Acme Analytics") or shortened to any unambiguous start ("acme a").`,
      },
    },
  ];
  for (const group of subcommandGroups) {
    const members = subcommands.filter((s) => s.group === group);
    if (members.length === 0) continue;
    const lines: Mrkdwn[] = [mrkdwn`*${escapeMrkdwn(group)}*`];
    for (const s of members) {
      const example = s.examples[0];
      const eg = example ? mrkdwn`\n      e.g. ${code(example)}` : mrkdwn``;
      lines.push(mrkdwn`• ${code(s.usage)} — ${escapeMrkdwn(s.summary)}${eg}`);
    }
    blocks.push(...chunkSections(lines));
  }
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: mrkdwn`\`/visibility help &lt;subcommand&gt;\` shows one subcommand with all its examples; \`/visibility help figures\` says what each figure counts.`,
      },
    ],
  });
  const names = escapeMrkdwn(subcommands.map((s) => s.name).join(', '));
  return {
    text: mrkdwn`Brand Visibility commands: ${names}. Try /visibility help &lt;subcommand&gt;.`,
    blocks,
  };
}

export function helpDetailReply(s: Subcommand): Reply {
  const lines: Mrkdwn[] = [mrkdwn`*${code(s.usage)}*`, escapeMrkdwn(s.summary)];
  if (s.aliases?.length) {
    lines.push(
      mrkdwn`Also: ${joinMrkdwn(
        s.aliases.map((a) => code(`/visibility ${a}`)),
        mrkdwn`, `,
      )}`,
    );
  }
  if (s.examples.length)
    lines.push(mrkdwn``, mrkdwn`*Examples*`, ...s.examples.map((e) => mrkdwn`• ${code(e)}`));
  return {
    text: escapeMrkdwn(`${s.usage}: ${s.summary}`),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: escapeMrkdwn(`/visibility ${s.name}`) } },
      ...chunkSections(lines),
    ],
  };
}

/** `/visibility help figures`: the glossary, one entry per figure, in the words every screen uses. */
export function helpFiguresReply(): Reply {
  const lines: Mrkdwn[] = [
    mrkdwn`Each figure has one name on every screen, in alerts, digests and charts. What each one counts:`,
  ];
  for (const f of GLOSSARY) {
    const shown = f.shown ? mrkdwn`\n      _${escapeMrkdwn(f.shown)}_` : mrkdwn``;
    lines.push(
      mrkdwn`• *${escapeMrkdwn(f.name)}*: ${escapeMrkdwn(f.counts)}. ${escapeMrkdwn(f.explanation)}${shown}`,
    );
  }
  return {
    text: mrkdwn`What the figures count: ${escapeMrkdwn(GLOSSARY.map((f) => f.name).join(', '))}.`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: mrkdwn`What the figures count` } },
      ...chunkSections(lines),
    ],
  };
}
