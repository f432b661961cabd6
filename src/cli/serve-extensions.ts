/**
 * What `serve` runs besides the Slack service. Each extension gets the deps before the
 * service starts and hooks itself into deps.onStart / deps.onStop (the scheduler starts
 * after the service listens and stops before the database closes). To add one: append it
 * here (one line).
 */
import type { AppDeps } from '../app-deps.js';
import { schedulerExtension } from '../jobs/scheduler-extension.js';

export type ServeExtension = (deps: AppDeps) => void;

export const serveExtensions: ServeExtension[] = [schedulerExtension()];
