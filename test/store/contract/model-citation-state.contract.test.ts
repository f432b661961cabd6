/** ModelCitationStateRepo on both backends: one JSON state per brand, read back as written. */
import { expect, it } from 'vitest';
import { INITIAL_MODEL_STATE, type ModelCitationState } from '../../../src/alerts/detect-model-citations.js';
import { describeBackends } from './store-backends.js';

const T = 1_700_000_000_000;

const STATE: ModelCitationState = {
  days: [{ date: '2026-11-20', complete: true, counts: { Perplexity: 11, 'Gemini "2"': 3 } }],
  stopped: { ChatGPT: { episode: 2, since: '2026-11-19' } },
  episodes: { ChatGPT: 2 },
  cites: { 'https://x.example/a?q=1': { Perplexity: '2026-11-20' } },
};

describeBackends('model citation state', (backend) => {
  it('an unknown brand reads as the initial state; a saved state reads back as written', async () => {
    const repo = backend().store().modelCitationState;
    expect(await repo.load('b1')).toEqual(INITIAL_MODEL_STATE);
    await repo.save('b1', STATE, T);
    expect(await repo.load('b1')).toEqual(STATE);
    expect(await repo.load('b2')).toEqual(INITIAL_MODEL_STATE);
  });

  it('a later save replaces the state; forget drops it', async () => {
    const repo = backend().store().modelCitationState;
    await repo.save('b1', STATE, T);
    const next = { ...STATE, stopped: {} };
    await repo.save('b1', next, T + 1);
    expect(await backend().other().store().modelCitationState.load('b1')).toEqual(next);
    await repo.forget('b1');
    expect(await repo.load('b1')).toEqual(INITIAL_MODEL_STATE);
  });

  it('rolls back with the transaction it was saved in', async () => {
    const store = backend().store();
    await expect(
      store.transaction(async () => {
        await store.modelCitationState.save('b1', STATE, T);
        throw new Error('outbox insert failed');
      }),
    ).rejects.toThrow('outbox insert failed');
    expect(await store.modelCitationState.load('b1')).toEqual(INITIAL_MODEL_STATE);
  });
});
