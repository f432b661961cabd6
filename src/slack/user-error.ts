/**
 * Bad input from the person typing: shown to them as is (the message is written for
 * them, already mrkdwn-escaped where it quotes their input), never logged as a failure.
 */
export class UserError extends Error {
  readonly code: string;
  /** The usage line to show with the message, e.g. `/visibility citations <brand> [--days N]`. */
  readonly usage: string | undefined;

  constructor(code: string, message: string, usage?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UserError';
    this.code = code;
    this.usage = usage;
  }
}
