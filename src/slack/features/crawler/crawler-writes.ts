/**
 * The crawler actions that change something at the service: they need editor access to
 * the brand (docs/api.md §5) and, in this bot, an admin (SLACK_ADMIN_USERS). The phrase is the
 * refusal text and the audit log's action, as for brand writes.
 */
export const CRAWLER_WRITES = {
  ping: 'send the crawler verification ping',
  submit: 'submit URLs to AI search',
} as const;
