/** Slack mrkdwn (our user-facing texts) as terminal text: dates and links to their fallback. */
export function mrkdwnToPlain(text: string): string {
  return text
    .replace(/<!date\^\d+\^[^|>]*\|([^>]*)>/g, '$1')
    .replace(/<([^|>]+)\|([^>]*)>/g, '$2 ($1)')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
