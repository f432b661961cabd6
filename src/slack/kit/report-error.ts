/**
 * What commands and actions do with a thrown error: log it the right way (a stack only
 * for the unexpected, never for a user's typo), reply with the user-facing text, and say
 * which outcome to count. A reply that cannot be delivered is only logged.
 */
import { isApiError } from '../../api/errors.js';
import type { Logger } from '../../logger.js';
import { explainError } from '../../messages/explain-error.js';
import { errorReply, type Reply } from '../../messages/reply.js';
import { UserError } from '../../messages/user-error.js';
import type { CommandOutcome } from '../../metrics.js';
import { databaseUnavailableCode } from '../../store/database-unavailable.js';
import { ReplyDeliveryError } from './fitted-respond.js';

export async function reportError(
  err: unknown,
  io: { logger: Logger; respond: (reply: Reply) => Promise<void>; label: string },
): Promise<CommandOutcome> {
  const { logger, label } = io;
  if (err instanceof ReplyDeliveryError) {
    logger.warn({ err, handler: label }, 'reply could not be delivered to the response_url');
    return 'error';
  }
  const facing = explainError(err);
  let outcome: CommandOutcome = 'user_error';
  const outage = databaseUnavailableCode(err);
  if (outage) {
    // The outage itself is logged once, where it is noticed (database-health.ts).
    logger.info({ code: outage, handler: label }, 'answered that the database cannot be used right now');
    outcome = 'database_unavailable';
  } else if (!facing.expected) {
    logger.error({ err, ref: facing.ref, handler: label }, 'handler failed');
    outcome = 'error';
  } else if (!(err instanceof UserError)) {
    logger.warn({ code: isApiError(err) ? err.code : undefined, handler: label }, 'handler hit an API error');
    outcome = 'api_error';
  }
  await io
    .respond(errorReply(err, facing))
    .catch((deliveryErr: unknown) =>
      logger.warn({ err: deliveryErr, handler: label }, 'error reply could not be delivered'),
    );
  return outcome;
}
