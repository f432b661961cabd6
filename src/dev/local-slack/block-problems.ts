/**
 * Validation messages in Slack's own wording, each with the JSON pointer it is about
 * (`must be less than 3001 characters [json-pointer:/blocks/0/text/text]`).
 */
export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export class Collector {
  readonly messages: string[] = [];
  add(message: string, pointer: string): void {
    this.messages.push(`${message} [json-pointer:${pointer}]`);
  }
  maxLength(value: unknown, max: number, pointer: string): void {
    if (typeof value === 'string' && value.length > max) {
      this.add(`must be less than ${max + 1} characters`, pointer);
    }
  }
  maxItems(value: unknown, max: number, pointer: string): void {
    if (Array.isArray(value) && value.length > max) this.add(`no more than ${max} items allowed`, pointer);
  }
  /** A required string of 1..`max` characters (a plain field, not a text object). */
  string(value: unknown, pointer: string, max = Number.POSITIVE_INFINITY): value is string {
    if (typeof value !== 'string') {
      this.add('must provide a string', pointer);
      return false;
    }
    if (value.length === 0) this.add('must be more than 0 characters', pointer);
    else this.maxLength(value, max, pointer);
    return true;
  }
  /** A required array of `min`..`max` items; the array when it is one. */
  array(value: unknown, pointer: string, min: number, max: number): unknown[] | undefined {
    if (!Array.isArray(value)) {
      this.add('must provide an array', pointer);
      return undefined;
    }
    if (value.length < min) this.add(`must provide at least ${min} item${min === 1 ? '' : 's'}`, pointer);
    this.maxItems(value, max, pointer);
    return value;
  }
  /** A required finite number. */
  number(value: unknown, pointer: string): value is number {
    if (typeof value === 'number' && Number.isFinite(value)) return true;
    this.add('must provide a number', pointer);
    return false;
  }
  /** An optional integer in `min`..`max`. */
  optionalInteger(value: unknown, pointer: string, min: number, max: number): void {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isInteger(value)) this.add('must provide an integer', pointer);
    else if (value < min) this.add(`must be at least ${min}`, pointer);
    else if (value > max) this.add(`must be at most ${max}`, pointer);
  }
  /** A composition text object; `plainOnly` where Slack demands `plain_text`. */
  text(value: unknown, pointer: string, max: number, plainOnly = false): void {
    if (!isObject(value)) {
      this.add('must provide an object', pointer);
      return;
    }
    const type = value['type'];
    if (plainOnly ? type !== 'plain_text' : type !== 'plain_text' && type !== 'mrkdwn') {
      this.add(`must be ${plainOnly ? 'plain_text' : 'plain_text or mrkdwn'}`, `${pointer}/type`);
    }
    const text = value['text'];
    if (typeof text !== 'string') {
      this.add('must provide a string', `${pointer}/text`);
    } else if (text.length === 0) {
      this.add('must be more than 0 characters', `${pointer}/text`);
    } else {
      this.maxLength(text, max, `${pointer}/text`);
    }
  }
}
