/**
 * Slack mrkdwn needs only `&`, `<` and `>` escaped (Slack "Formatting text for app
 * surfaces"): anything from the service or a user goes through `escapeMrkdwn` before it
 * lands in a message, so a brand named "R&D <test>" cannot turn into a broken link.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `<url|label>` with the label escaped; `|` and `>` in a label would end the link early. */
export function mrkdwnLink(url: string, label: string): string {
  return `<${url.replace(/[<>|\s]/g, encodeURIComponent)}|${escapeMrkdwn(label).replace(/\|/g, '¦')}>`;
}
