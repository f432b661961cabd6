/**
 * Helpers for the brand command e2e tests: drive `/visibility …` and clicks through the
 * local Slack, then read what reached the simulator and what Slack shows.
 */

import { expect } from 'vitest';
import type { RecordedRequest } from '../../src/dev/simulator/index.js';
import { sqliteDbOf } from '../store/temp-db.js';
import type { Harness } from './service-harness.js';

export interface ReplyBody {
  text: string;
  blocks: Array<Record<string, unknown>>;
  response_type?: string;
  replace_original?: boolean;
}

export const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

export function brandKit(get: () => Harness) {
  const kit = {
    /** `/visibility <text>`; resolves with the first reply on its response_url (checked like Slack does). */
    async command(text: string, o: { userId?: string; channelId?: string } = {}) {
      const h = get();
      const res = await h.slack.slashCommand(h.appUrl, { text, ...o });
      expect(res.status).toBe(200);
      const post = await h.slack.waitFor(() => h.slack.responsesFor(res.responseUrlId)[0], 5000);
      expect(post.error).toBeUndefined();
      expect(post.status).toBe(200);
      return { responseUrlId: res.responseUrlId, reply: post.body as ReplyBody };
    },
    /** A click on an element of the last reply on `responseUrlId`; resolves with the next reply there. */
    async click(
      responseUrlId: string,
      actionId: string,
      o: {
        value?: string;
        userId?: string;
        messageTs?: string;
        blockId?: string;
        selectedOption?: string;
      } = {},
    ) {
      const h = get();
      const before = h.slack.responsesFor(responseUrlId).length;
      const res = await h.slack.blockAction(h.appUrl, { actionId, responseUrlId, ...o });
      expect(res.status).toBe(200);
      const post = await h.slack.waitFor(() => h.slack.responsesFor(responseUrlId)[before], 5000);
      expect(post.error).toBeUndefined();
      return post.body as ReplyBody;
    },
    /** Every request to the simulator that changes something. */
    writes(): RecordedRequest[] {
      return get().sim.requests.filter((r) => WRITE_METHODS.has(r.method));
    },
    /** GET /get-brands requests that asked for one brand (details), not the brand list. */
    brandReads(): RecordedRequest[] {
      return get().sim.requests.filter(
        (r) => r.method === 'GET' && r.path === '/get-brands' && r.query['brand_id'],
      );
    },
    /** The brand as the simulator has it now (read straight from it, not through the bot). */
    async simBrand(brandId: string) {
      const h = get();
      const res = await fetch(`${h.sim.url}/get-brands?brand_id=${brandId}&include=markets,aliases`, {
        headers: { authorization: `Bearer ${h.sim.apiKey}` },
      });
      const body = (await res.json()) as {
        brands: Array<{
          location: string | null;
          markets: Array<{ id: string; location: string; is_primary: boolean; created_at: string }>;
          aliases: string[];
        }>;
      };
      return body.brands[0]!;
    },
    /** Elements of the reply's blocks with this action_id. */
    elements(reply: { blocks: unknown[] }, actionId: string): Array<Record<string, unknown>> {
      const out: Array<Record<string, unknown>> = [];
      for (const b of reply.blocks as Array<Record<string, unknown>>) {
        const els = [...((b['elements'] as unknown[]) ?? []), b['accessory'], b['element']].filter(Boolean);
        for (const e of els as Array<Record<string, unknown>>) if (e['action_id'] === actionId) out.push(e);
      }
      return out;
    },
    blockText: (reply: { blocks: unknown[] }) => JSON.stringify(reply.blocks),
  };
  return kit;
}

/** Forget what earlier tests left behind: Slack state, simulator data, cached brands, channel defaults. */
export function resetWorld(h: Harness): void {
  h.slack.reset();
  h.sim.control.reset();
  h.deps.brandCache.invalidate();
  sqliteDbOf(h.deps.store).prepare('DELETE FROM channel_defaults').run();
}
