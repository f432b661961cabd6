/**
 * Channel subscriptions to a brand's alerts and digest: (channel, brand) is unique.
 * Settings are stored as JSON and always read back through `resolveAlertSettings`, so a
 * setting added later gets its default for old rows. Written once for both backends in
 * repos/subscriptions.ts.
 */
import type { AlertSettings } from '../alerts/alert-settings.js';

export interface Subscription {
  id: number;
  channelId: string;
  brandId: string;
  brandName: string;
  alerts: boolean;
  digest: boolean;
  settings: AlertSettings;
  createdBy: string;
  createdAtMs: number;
  pausedReason: string | null;
  pausedAtMs: number | null;
  mutedUntilMs: number | null;
  lastDigestDate: string | null;
}

export interface NewSubscription {
  channelId: string;
  brandId: string;
  brandName: string;
  alerts?: boolean;
  digest?: boolean;
  settings?: AlertSettings;
  createdBy: string;
  createdAtMs: number;
}

export interface SubscriptionsRepo {
  /**
   * Creates the subscription, or refreshes an existing one (name, flags, settings when
   * given) and lifts a pause; `created` tells which.
   */
  upsert(s: NewSubscription): Promise<{ subscription: Subscription; created: boolean }>;
  get(channelId: string, brandId: string): Promise<Subscription | null>;
  getById(id: number): Promise<Subscription | null>;
  /** true when there was one to remove */
  remove(channelId: string, brandId: string): Promise<boolean>;
  listByChannel(channelId: string): Promise<Subscription[]>;
  listByBrand(brandId: string): Promise<Subscription[]>;
  /** Every subscription that is not paused; `want` narrows to alerts or digest on. */
  listActive(want?: 'alerts' | 'digest'): Promise<Subscription[]>;
  listAll(): Promise<Subscription[]>;
  /** Distinct brands with an active subscription (a brand watched by two channels is polled once). */
  activeBrandIds(want?: 'alerts' | 'digest'): Promise<string[]>;
  setSettings(channelId: string, brandId: string, settings: AlertSettings): Promise<boolean>;
  setFlags(
    channelId: string,
    brandId: string,
    flags: { alerts?: boolean; digest?: boolean },
  ): Promise<boolean>;
  setBrandName(brandId: string, brandName: string): Promise<number>;
  /** Pauses every subscription of a channel (channel_not_found and friends are per channel). */
  pauseChannel(channelId: string, reason: string, atMs: number): Promise<number>;
  resumeChannel(channelId: string): Promise<number>;
  /** null = unmute */
  setMutedUntil(channelId: string, brandId: string, untilMs: number | null): Promise<boolean>;
  markDigestSent(id: number, localDate: string): Promise<void>;
}
