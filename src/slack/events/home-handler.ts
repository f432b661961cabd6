/** The contract for the App Home tab: handlers run when a user opens it (app_home_opened). */
import type { WebClient } from '@slack/web-api';
import type { HomeView } from '../../messages/block-kit-types.js';
import type { SlackDeps } from '../kit/slack-deps.js';

export interface HomeContext {
  deps: SlackDeps;
  userId: string;
  client: WebClient;
  /** The app_home_opened event as Slack sent it. */
  event: unknown;
  /** Throws a UserError for Slack guests: brand data is for workspace members. */
  ensureMember(): Promise<void>;
  /** views.publish for this user, fitted to the 100-block limit. */
  publish(view: HomeView): Promise<void>;
}

export interface HomeHandler {
  name: string;
  run(ctx: HomeContext): Promise<void>;
}
