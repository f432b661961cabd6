/**
 * Bad input from the person typing: shown to them as is, never logged as a failure. The
 * message is `Mrkdwn`: whatever it quotes of their input was escaped when it was built.
 */
import type { Mrkdwn } from './mrkdwn.js';

export class UserError extends Error {
  declare message: Mrkdwn;
  readonly code: string;
  /** The usage line to show with the message, e.g. `/visibility citations <brand> [--days N]`. */
  readonly usage: string | undefined;

  constructor(code: string, message: Mrkdwn, usage?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UserError';
    this.code = code;
    this.usage = usage;
  }
}
