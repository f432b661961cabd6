/**
 * Why a Workflow Builder step failed, in a sentence the workflow's author understands:
 * Slack shows it to the person who ran the workflow and in the workflow's activity, where
 * nobody can ask the bot what it meant. Expected trouble (a brand that does not exist, the
 * API refusing or not answering) says what to do; anything else (the bot's own database
 * not answering, a bug) says the step can be run again and gives the reference logged with
 * the error.
 */

import { explainError } from '../../messages/explain-error.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { plainWords } from '../../messages/plain-words.js';

interface StepFailure {
  /** Plain words, escaped like every text we send. */
  sentence: Mrkdwn;
  /** false: log the error with its stack. */
  expected: boolean;
  ref?: string;
}

export function stepFailure(stepTitle: string, err: unknown): StepFailure {
  const facing = explainError(err);
  const step = escapeMrkdwn(stepTitle);
  if (facing.ref !== undefined) {
    return {
      sentence: mrkdwn`“${step}” could not finish: the Brand Visibility bot had a problem on its side (for example its database not answering), reference ${escapeMrkdwn(facing.ref)}. Run the workflow again in a few minutes; if it keeps failing, give the reference to the bot's admin.`,
      expected: false,
      ref: facing.ref,
    };
  }
  return {
    sentence: plainWords(mrkdwn`“${step}” could not finish: ${facing.message}`),
    expected: facing.expected,
  };
}
