/** `/visibility help`: built from the registry, so every new subcommand shows up by itself. */
import type { Subcommand } from '../commands/subcommand.js';
import { subcommandGroups } from '../commands/subcommand.js';
import type { Reply } from '../reply.js';
import type { KnownBlock } from './block-kit-types.js';
import { chunkSections } from './chunk-sections.js';
import { escapeMrkdwn } from './mrkdwn.js';

const code = (s: string) => `\`${escapeMrkdwn(s)}\``;

export function helpOverviewReply(subcommands: readonly Subcommand[]): Reply {
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Brand Visibility in Slack' } },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: 'Type `/visibility <subcommand>`. Brand names can be quoted ("Acme Analytics") or shortened to any unambiguous start ("acme a").',
      },
    },
  ];
  for (const group of subcommandGroups) {
    const members = subcommands.filter((s) => s.group === group);
    if (members.length === 0) continue;
    const lines = [`*${group}*`];
    for (const s of members) {
      const example = s.examples[0];
      lines.push(
        `• ${code(s.usage)} — ${escapeMrkdwn(s.summary)}${example ? `\n      e.g. ${code(example)}` : ''}`,
      );
    }
    blocks.push(...chunkSections(lines));
  }
  blocks.push({
    type: 'context',
    elements: [
      { type: 'mrkdwn', text: '`/visibility help <subcommand>` shows one subcommand with all its examples.' },
    ],
  });
  return {
    text: `Brand Visibility commands: ${subcommands.map((s) => s.name).join(', ')}. Try /visibility help &lt;subcommand&gt;.`,
    blocks,
  };
}

export function helpDetailReply(s: Subcommand): Reply {
  const lines = [`*${code(s.usage)}*`, escapeMrkdwn(s.summary)];
  if (s.aliases?.length) lines.push(`Also: ${s.aliases.map((a) => code(`/visibility ${a}`)).join(', ')}`);
  if (s.examples.length) lines.push('', '*Examples*', ...s.examples.map((e) => `• ${code(e)}`));
  return {
    text: escapeMrkdwn(`${s.usage}: ${s.summary}`),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: `/visibility ${s.name}` } },
      ...chunkSections(lines),
    ],
  };
}
