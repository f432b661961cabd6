/**
 * A time zone picker for the settings form. The runtime knows about 420 IANA zones and a
 * static_select shows at most 100 options per group, so they come in option groups by
 * region (America, the largest, in two halves), after a first group with the bot's default
 * and UTC. Slack's picker filters them as the user types ("Berl" finds Berlin).
 */
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';

/** The option meaning "no zone of its own": the bot's DEFAULT_TIMEZONE applies. */
export const DEFAULT_ZONE_VALUE = 'default';

const MAX_PER_GROUP = 100;

interface Option {
  text: { type: 'plain_text'; text: Mrkdwn };
  value: string;
}
interface Group {
  label: { type: 'plain_text'; text: Mrkdwn };
  options: Option[];
}

/** `America/Argentina/Buenos_Aires` → `Argentina / Buenos Aires (America)`. */
function zoneLabel(zone: string): string {
  const [region, ...rest] = zone.split('/');
  if (rest.length === 0) return zone;
  return `${rest.join(' / ').replace(/_/g, ' ')} (${region})`;
}

const option = (value: string, label: string): Option => ({
  text: { type: 'plain_text', text: truncatePlain(escapeMrkdwn(label), 75) },
  value,
});

const group = (label: string, options: Option[]): Group => ({
  label: { type: 'plain_text', text: escapeMrkdwn(label) },
  options,
});

function regionGroups(): Group[] {
  const byRegion = new Map<string, Option[]>();
  for (const zone of Intl.supportedValuesOf('timeZone')) {
    if (!zone.includes('/')) continue;
    const region = zone.slice(0, zone.indexOf('/'));
    byRegion.set(region, [...(byRegion.get(region) ?? []), option(zone, zoneLabel(zone))]);
  }
  const groups: Group[] = [];
  for (const [region, options] of byRegion) {
    const parts = Math.ceil(options.length / MAX_PER_GROUP);
    const size = Math.ceil(options.length / parts);
    for (let i = 0; i < parts; i += 1) {
      const slice = options.slice(i * size, (i + 1) * size);
      const label =
        parts === 1
          ? region
          : `${region} (${zoneLabel(slice[0]!.value).charAt(0)}–${zoneLabel(slice.at(-1)!.value).charAt(0)})`;
      groups.push(group(label, slice));
    }
  }
  return groups;
}

const REGION_GROUPS = regionGroups();

/**
 * The select, its initial option the subscription's zone (or the default). A zone stored
 * earlier that this runtime does not list (an alias) is offered too, so the form can show it.
 */
export function timeZoneSelect(actionId: string, current: string | null, defaultTimezone: string) {
  const first = [option(DEFAULT_ZONE_VALUE, `The bot's default (${defaultTimezone})`), option('UTC', 'UTC')];
  const listed =
    current === null ||
    current === 'UTC' ||
    REGION_GROUPS.some((g) => g.options.some((o) => o.value === current));
  if (!listed) first.push(option(current, zoneLabel(current)));
  const all = [...first, ...REGION_GROUPS.flatMap((g) => g.options)];
  const initial = all.find((o) => o.value === (current ?? DEFAULT_ZONE_VALUE));
  return {
    type: 'static_select' as const,
    action_id: actionId,
    placeholder: { type: 'plain_text' as const, text: mrkdwn`Pick a time zone` },
    option_groups: [group('Default', first), ...REGION_GROUPS],
    ...(initial ? { initial_option: initial } : {}),
  };
}
