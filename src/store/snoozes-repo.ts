/**
 * "Snooze" on an alert mutes that kind of alert for that brand in that channel (docs/alert-semantics.md).
 * Snoozing again extends or shortens to the new end; expired rows are harmless and purged.
 */
export interface Snooze {
  channelId: string;
  brandId: string;
  kind: string;
  untilMs: number;
  createdBy: string | null;
  createdAtMs: number;
}

export interface SnoozesRepo {
  snooze(s: Snooze): Promise<void>;
  /** Kinds snoozed now for (channel, brand), with when each snooze ends. */
  active(channelId: string, brandId: string, nowMs: number): Promise<Map<string, number>>;
  /**
   * `active` for every channel of each of `brandIds`, in one statement, by the pair's
   * levelKey (channel-detector-state-repo.ts); a pair with nothing snoozed is absent.
   */
  activeOfBrands(brandIds: readonly string[], nowMs: number): Promise<Map<string, Map<string, number>>>;
  /** Every snooze still running, for status views. */
  listActive(nowMs: number): Promise<Snooze[]>;
  clear(channelId: string, brandId: string, kind?: string): Promise<number>;
  /** Deletes snoozes over by `nowMs` (with `limit`, at most that many); returns how many. */
  purgeExpired(nowMs: number, limit?: number): Promise<number>;
}
