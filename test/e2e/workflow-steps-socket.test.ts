/**
 * In Socket Mode a custom step's function_executed event arrives in an events_api envelope
 * over the socket, like any event; Bolt acknowledges it there and the step ends with
 * functions.completeSuccess on the run's token.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../src/dev/simulator/index.js';
import { type FakeSlackService, startFakeSlackService } from './fake-socket-mode.js';

let running: FakeSlackService;

beforeAll(async () => {
  running = await startFakeSlackService({ appToken: 'xapp-1-A0LOCALAPP-1234-workflowstepsocket' });
});
afterAll(async () => {
  await running?.close();
});

it('runs a step delivered over the socket and completes it', async () => {
  const { slack, fake } = running;
  const { execution } = await slack.executeFunction(fake.relayUrl, {
    callbackId: 'list_lost_citations',
    inputs: { brand: SEED_BRANDS.acme.name, days: 7 },
  });
  const envelope = fake.deliveries.find((d) => d.type === 'events_api');
  expect(envelope).toBeDefined();
  expect(fake.acks.some((a) => a.envelopeId === envelope!.envelopeId)).toBe(true);
  const done = await slack.waitFor(() => {
    const run = slack.functionExecutions().find((e) => e.id === execution.id);
    return run && run.state !== 'running' ? run : undefined;
  }, 15_000);
  expect(done.state, done.error).toBe('completed');
  expect(typeof done.outputs?.['lost_count']).toBe('number');
  expect(slack.callsTo('functions.completeSuccess')[0]?.token).toBe(execution.botAccessToken);
});
