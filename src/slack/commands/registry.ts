/**
 * Every `/visibility` subcommand, in the order help lists them within a group. To add one:
 * import it and append it here (one line); routing and help pick it up.
 */
import type { Subcommand } from './subcommand.js';
import { aipages } from './subcommands/aipages.js';
import { aliases } from './subcommands/aliases.js';
import { brand } from './subcommands/brand.js';
import { brands } from './subcommands/brands.js';
import { citations } from './subcommands/citations.js';
import { crawler } from './subcommands/crawler.js';
import { help } from './subcommands/help.js';
import { ideas } from './subcommands/ideas.js';
import { location } from './subcommands/location.js';
import { markets } from './subcommands/markets.js';
import { mute } from './subcommands/mute.js';
import { settings } from './subcommands/settings.js';
import { status } from './subcommands/status.js';
import { subscribe } from './subcommands/subscribe.js';
import { subscriptions } from './subcommands/subscriptions.js';
import { unmute } from './subcommands/unmute.js';
import { unsubscribe } from './subcommands/unsubscribe.js';
import { use } from './subcommands/use.js';

export const subcommands: Subcommand[] = [
  help,
  brands,
  brand,
  markets,
  location,
  aliases,
  use,
  status,
  ideas,
  citations,
  crawler,
  aipages,
  subscribe,
  unsubscribe,
  subscriptions,
  settings,
  mute,
  unmute,
];
