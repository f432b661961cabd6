/** `/visibility help`: built from the registry, so every new subcommand shows up by itself. */

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
        text: mrkdwn`\`/visibility help &lt;subcommand&gt;\` shows one subcommand with all its examples.`,
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
