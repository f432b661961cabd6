/**
 * Bolt's receiver for the chosen mode. HTTP: POST /slack/events behind a guard
 * (guarded-http-receiver.ts: signature, freshness, shape, redeliveries); startService's
 * own server hands those requests to it and answers /healthz and /metrics itself. Socket
 * Mode: the connection to Slack behind the same shape and redelivery guard
 * (guarded-socket-mode-receiver.ts), its reconnection supervised by startService.
 */
import type { CustomRoute, Receiver } from '@slack/bolt';
import type { RetryOptions } from '@slack/web-api';
import { boltLogger } from '../slack-client/bolt-logger.js';
import { webClientOptions } from '../slack-client/web-client-options.js';
import { GuardedHTTPReceiver } from './guarded-http-receiver.js';
import { GuardedSocketModeReceiver } from './guarded-socket-mode-receiver.js';
import type { SlackServiceDeps } from './kit/slack-deps.js';
import type { ReceiverChoice } from './select-receiver.js';

/** Socket Mode: set by a caller that supervises reconnection itself (startService). */
interface SocketSupervision {
  autoReconnectEnabled: boolean;
  retryConfig: RetryOptions;
}

export function createReceiver(
  deps: Pick<SlackServiceDeps, 'config' | 'clock' | 'store' | 'database' | 'logger' | 'metrics'>,
  choice: ReceiverChoice,
  routes: CustomRoute[],
  supervision?: SocketSupervision,
): Receiver {
  const logger = boltLogger(deps.logger, 'bolt-receiver');
  const guard = {
    clock: deps.clock,
    logger: deps.logger,
    handledRequests: deps.store.handledRequests,
    database: deps.database,
  };
  if (choice.mode === 'http') {
    return new GuardedHTTPReceiver(
      {
        signingSecret: choice.signingSecret,
        customRoutes: routes,
        logger,
        // Ack first, work after: the HTTP answer leaves as soon as a listener calls ack().
        processBeforeResponse: false,
      },
      guard,
    );
  }
  const { slackApiUrl, fetch, timeout } = webClientOptions(deps.config, 'interactive', deps);
  return new GuardedSocketModeReceiver(
    {
      appToken: choice.appToken,
      logger,
      // apps.connections.open keeps socket-mode's own reconnect retry policy (it must keep
      // trying while Slack is away); only the URL, fetch and timeout are ours.
      installerOptions: {
        clientOptions: {
          slackApiUrl,
          fetch,
          timeout,
          ...(supervision && { retryConfig: supervision.retryConfig }),
        },
      },
      ...(supervision && { autoReconnectEnabled: supervision.autoReconnectEnabled }),
    },
    guard,
  );
}
