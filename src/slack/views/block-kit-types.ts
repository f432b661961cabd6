/** Block Kit types, taken from Bolt's re-export of @slack/types (not a direct dependency). */
import type { types } from '@slack/bolt';

export type KnownBlock = types.KnownBlock;
export type SectionBlock = types.SectionBlock;
export type ActionsBlock = types.ActionsBlock;
export type ContextBlock = types.ContextBlock;
export type Button = types.Button;
export type View = types.View;
export type ModalView = types.ModalView;
export type HomeView = types.HomeView;
