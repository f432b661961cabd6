/**
 * A list as mrkdwn lines in at most `max` characters: as many whole lines as fit, then
 * "…and N more" naming what was left out, so a long list never silently loses items. A
 * first line too long on its own is shortened rather than dropped.
 */
import { joinMrkdwn, type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { truncateMrkdwn } from '../../messages/truncate-mrkdwn.js';

export function linesWithMore(
  lines: readonly Mrkdwn[],
  max: number,
  more: (hidden: number) => Mrkdwn = (n) => mrkdwn`…and ${n} more`,
): Mrkdwn {
  const out: Mrkdwn[] = [];
  let length = 0;
  for (const [i, line] of lines.entries()) {
    const left = lines.length - i - 1;
    const tail = left > 0 ? more(left).length + 1 : 0;
    if (length + line.length + 1 + tail > max) {
      if (i === 0) {
        out.push(truncateMrkdwn(line, Math.max(1, max - tail - 1)));
        length = out[0]!.length + 1;
      }
      break;
    }
    out.push(line);
    length += line.length + 1;
  }
  if (out.length < lines.length) out.push(more(lines.length - out.length));
  return truncateMrkdwn(joinMrkdwn(out, mrkdwn`\n`), max);
}
