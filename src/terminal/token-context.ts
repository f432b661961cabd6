/**
 * What turning Slack's special tokens into words needs and mrkdwn alone does not carry:
 * who `<@U…>` and `<#C…>` are, the reader's time zone for `<!date^…>`, and "now" for
 * `{date_pretty}` and `{ago}`. Without one, tokens show their own label or fallback text.
 */
export interface TokenContext {
  /** A user's display name (without @), when known. */
  userName(userId: string): string | undefined;
  /** A channel's name (without #), when known. */
  channelName(channelId: string): string | undefined;
  /** IANA zone dates are shown in, as Slack shows them in the reader's zone. */
  readonly timeZone: string;
  /** Epoch ms, for today/yesterday and "3 minutes ago". */
  now(): number;
}
