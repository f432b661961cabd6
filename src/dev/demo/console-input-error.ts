/** A console line the console cannot act on (a typo, a missing button): said, never fatal. */
export class ConsoleInputError extends Error {
  override readonly name = 'ConsoleInputError';
}
