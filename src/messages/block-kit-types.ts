/**
 * Block Kit types, taken from Bolt's re-export of @slack/types (not a direct dependency),
 * with every text object's `text` narrowed to `Mrkdwn`: a block, modal or Home view built
 * with unescaped service or user text does not type-check (see mrkdwn.ts).
 */
import type { types } from '@slack/bolt';
import type { Mrkdwn } from './mrkdwn.js';

type Primitive = string | number | boolean | bigint | symbol | null | undefined;

/** `T` with the `text` of every `{type: 'mrkdwn' | 'plain_text', text}` object required to be Mrkdwn. */
export type EscapedText<T> = T extends Primitive
  ? T
  : T extends readonly (infer U)[]
    ? EscapedText<U>[]
    : T extends { type: 'mrkdwn' | 'plain_text'; text: string }
      ? { [K in keyof T]: K extends 'text' ? Mrkdwn : EscapedText<T[K]> }
      : { [K in keyof T]: EscapedText<T[K]> };

export type KnownBlock = EscapedText<types.KnownBlock>;
export type SectionBlock = EscapedText<types.SectionBlock>;
export type ActionsBlock = EscapedText<types.ActionsBlock>;
export type ContextBlock = EscapedText<types.ContextBlock>;
export type Button = EscapedText<types.Button>;
export type View = EscapedText<types.View>;
export type ModalView = EscapedText<types.ModalView>;
export type HomeView = EscapedText<types.HomeView>;
export type MrkdwnElement = EscapedText<types.MrkdwnElement>;
export type PlainTextElement = EscapedText<types.PlainTextElement>;
