/**
 * Our mrkdwn as plain words, for a place that may show text as it is: the error a
 * Workflow Builder step fails with, which Slack passes on to the person in a message and
 * lists in the workflow's activity. Bold, italic, strike and code marks around words go,
 * a date token becomes its written-out fallback, a link its label and address. Entities
 * stay escaped, so what came from data is still data wherever the words are shown.
 */
import type { Mrkdwn } from './mrkdwn.js';

const trust = (text: string): Mrkdwn => text as Mrkdwn;

export function plainWords(text: Mrkdwn): Mrkdwn {
  return trust(
    text
      .replace(/<!date\^[^|>]*\|([^>]*)>/g, '$1')
      .replace(/<(https?:\/\/[^|>]+)\|([^>]*)>/g, '$2 ($1)')
      .replace(/`([^`\n]+)`/g, '“$1”')
      .replace(/(^|[^\w*])\*([^*\n]+)\*(?![\w*])/g, '$1$2')
      .replace(/(^|[^\w_])_([^_\n]+)_(?![\w_])/g, '$1$2')
      .replace(/(^|[^\w~])~([^~\n]+)~(?![\w~])/g, '$1$2'),
  );
}
