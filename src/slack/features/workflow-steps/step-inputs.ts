/**
 * A step's inputs as Workflow Builder hands them over: whatever the author typed or mapped
 * from an earlier step, checked like a command's arguments. A missing or unusable input is
 * a UserError naming the input by the title the author sees, so the failed step says
 * which field to fix.
 */
import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { StepContext } from '../../steps/workflow-step.js';

type Inputs = StepContext['inputs'];

const CHANNEL_ID = /^[CGD][A-Z0-9]{1,30}$/;
const USER_ID = /^[UW][A-Z0-9]{1,30}$/;

/** A text input the step cannot run without. */
export function requiredText(inputs: Inputs, name: string, title: string): string {
  const value = inputs[name];
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  if (text === '') {
    throw new UserError(
      UserErrorCode.StepInputMissing,
      mrkdwn`the step needs a value for “${escapeMrkdwn(title)}”.`,
    );
  }
  return text;
}

/** A whole number from `min` to `max`; `fallback` when the input was left empty. */
export function wholeNumber(
  inputs: Inputs,
  name: string,
  title: string,
  range: { min: number; max: number; fallback: number },
): number {
  const value = inputs[name];
  if (value === undefined || value === null || value === '') return range.fallback;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(n) || n < range.min || n > range.max) {
    throw new UserError(
      UserErrorCode.StepInputInvalid,
      mrkdwn`“${escapeMrkdwn(title)}” must be a whole number from ${range.min} to ${range.max}, not “${escapeMrkdwn(String(value).slice(0, 40))}”.`,
    );
  }
  return n;
}

/** A channel picked in Workflow Builder (a C…, G… or D… id). */
export function channelId(inputs: Inputs, name: string, title: string): string {
  const id = requiredText(inputs, name, title);
  if (!CHANNEL_ID.test(id)) {
    throw new UserError(
      UserErrorCode.StepInputInvalid,
      mrkdwn`“${escapeMrkdwn(title)}” must be a channel picked from the list.`,
    );
  }
  return id;
}

/** The person a step runs for, when the workflow names one (a U… or W… id). */
export function optionalUserId(inputs: Inputs, name: string, title: string): string | undefined {
  const value = inputs[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !USER_ID.test(value.trim())) {
    throw new UserError(
      UserErrorCode.StepInputInvalid,
      mrkdwn`“${escapeMrkdwn(title)}” must be a person picked from the list.`,
    );
  }
  return value.trim();
}
