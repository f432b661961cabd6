/**
 * AlertHistoryQueries (alert-history-queries.ts has the contract), for both backends.
 * Rows are ranked by id and time alone, and only the kept rows' payloads are read. The
 * metadata fields come out of JSON as JSON text and are checked here: a value of the wrong
 * type counts as absent. The brands' rows are read through the index on (brand_id, kind,
 * created_at_ms, id) (migration 11); without it every call scanned the outbox: about 30 ms at
 * 10,000 rows and 100-150 ms at 100,000 on a busy 2-core machine.
 */
import { sql } from 'kysely';
import type {
  AlertAcknowledgement,
  AlertHistoryQueries,
  ChannelAlertMessage,
  RecentAlert,
} from '../alert-history-queries.js';
import type { RepoContext } from '../repo-context.js';

/** JSON text as its value; null stays null. */
const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

// Long by design: one short method per query of the alert history; each reads alone.
export function createAlertHistoryQueries(ctx: RepoContext): AlertHistoryQueries {
  /**
   * The newest `places` rows of `kind` per brand, by creation time; rows whose key holds
   * `leaveOut` are not counted.
   */
  const newest = (
    kind: 'alert' | 'chart' | 'digest',
    brandIds: readonly string[],
    places: number,
    leaveOut?: string,
  ) => {
    const db = ctx.db();
    let ranked = db
      .selectFrom('outbox')
      .select((eb) => [
        'id',
        eb.fn
          .agg<number>('row_number')
          .over((w) => w.partitionBy('brand_id').orderBy('created_at_ms', 'desc').orderBy('id', 'desc'))
          .as('place'),
      ])
      .where('kind', '=', kind)
      .where('brand_id', 'in', [...brandIds]);
    if (leaveOut) ranked = ranked.where('dedupe_key', 'not like', `%${leaveOut}%`);
    // A row merged into a later grouped message: that message stands for it.
    if (kind === 'alert')
      ranked = ranked.where((eb) => eb.not(eb.and([eb('status', '=', 'sent'), eb('slack_ts', 'is', null)])));
    return db
      .selectFrom(ranked.as('ranked'))
      .innerJoin('outbox as o', 'o.id', 'ranked.id')
      .where('ranked.place', '<=', places);
  };

  return {
    async recentAlerts(brandIds, perBrand) {
      if (brandIds.length === 0 || perBrand <= 0) return [];
      const at = (path: (string | number)[]) => ctx.sql.jsonAt(sql.ref<string>('o.payload'), path);
      const rows = await newest('alert', brandIds, perBrand)
        .select([
          'o.id',
          'o.channel_id',
          'o.brand_id',
          'o.status',
          'o.hold_until_ms',
          'o.created_at_ms',
          'o.sent_at_ms',
          'o.slack_ts',
          at(['metadata', 'event_payload', 'alert_count']).as('alert_count'),
          at(['metadata', 'event_payload', 'kinds']).as('kinds'),
          at(['blocks', 0, 'type']).as('first_block'),
          at(['blocks', 0, 'text', 'text']).as('headline'),
        ])
        .orderBy(ctx.sql.bytewise(sql.ref<string>('o.brand_id')))
        .orderBy('o.created_at_ms', 'desc')
        .orderBy('o.id', 'desc')
        .execute();
      return rows.map((r): RecentAlert => {
        const alertCount = parsed(r.alert_count);
        const kinds = parsed(r.kinds);
        const headline = parsed(r.headline);
        return {
          id: r.id,
          channelId: r.channel_id,
          brandId: r.brand_id!,
          status: r.status,
          holdUntilMs: r.hold_until_ms,
          createdAtMs: r.created_at_ms,
          sentAtMs: r.sent_at_ms,
          slackTs: r.slack_ts,
          alertCount: typeof alertCount === 'number' ? alertCount : 0,
          kinds: typeof kinds === 'string' && kinds !== '' ? kinds.split(',') : [],
          headline: parsed(r.first_block) === 'header' && typeof headline === 'string' ? headline : null,
        };
      });
    },
    async acknowledgementsSince(sinceMs) {
      const rows = await ctx
        .db()
        .selectFrom('audit_log')
        .select((eb) => [
          'channel_id',
          'user_id',
          'at_ms',
          ctx.sql.jsonAt(eb.ref('detail'), ['messageTs']).as('message_ts'),
        ])
        .where('action', '=', 'alert.acknowledge')
        .where('result', '=', 'ok')
        .where('at_ms', '>=', sinceMs)
        .orderBy('id')
        .execute();
      const out: AlertAcknowledgement[] = [];
      for (const r of rows) {
        const messageTs = parsed(r.message_ts);
        if (typeof r.channel_id === 'string' && typeof messageTs === 'string')
          out.push({ channelId: r.channel_id, messageTs, userId: r.user_id, atMs: r.at_ms });
      }
      return out;
    },
    async latestDigestCharts(brandIds, leaveOut) {
      if (brandIds.length === 0) return [];
      // The chart follows the digest as an image (a `chart` row), or sits in the digest
      // itself, drawn by Slack (its data kept as `nativeChart`): the newer of the two.
      const read = async (kind: 'chart' | 'digest', path: string[]) => {
        const rows = await newest(kind, brandIds, 1, leaveOut)
          .select([
            'o.brand_id',
            'o.created_at_ms',
            ctx.sql.jsonAt(sql.ref<string>('o.payload'), path).as('chart'),
          ])
          .execute();
        return rows.map((r) => ({
          brandId: r.brand_id!,
          createdAtMs: r.created_at_ms,
          chart: parsed(r.chart),
        }));
      };
      const rows = [...(await read('chart', ['chart'])), ...(await read('digest', ['nativeChart', 'chart']))];
      const newestOf = new Map<string, (typeof rows)[number]>();
      for (const r of rows) {
        if (r.chart === null || r.chart === undefined) continue;
        const seen = newestOf.get(r.brandId);
        if (!seen || r.createdAtMs > seen.createdAtMs) newestOf.set(r.brandId, r);
      }
      return [...newestOf.values()];
    },
    async channelAlertsBetween(channelId, brandId, fromMs, toMs) {
      const at = (path: (string | number)[]) => ctx.sql.jsonAt(sql.ref<string>('payload'), path);
      const rows = await ctx
        .db()
        .selectFrom('outbox')
        .select([
          'status',
          'created_at_ms',
          'slack_ts',
          at(['metadata', 'event_payload', 'alert_count']).as('alert_count'),
          at(['metadata', 'event_payload', 'kinds']).as('kinds'),
        ])
        .where('kind', '=', 'alert')
        .where('channel_id', '=', channelId)
        .where('brand_id', '=', brandId)
        .where('created_at_ms', '>=', fromMs)
        .where('created_at_ms', '<', toMs)
        .where('status', '!=', 'failed')
        .where((eb) => eb.not(eb.and([eb('status', '=', 'sent'), eb('slack_ts', 'is', null)])))
        .orderBy('created_at_ms')
        .orderBy('id')
        .execute();
      return rows.map((r): ChannelAlertMessage => {
        const alertCount = parsed(r.alert_count);
        const kinds = parsed(r.kinds);
        return {
          status: r.status,
          createdAtMs: r.created_at_ms,
          slackTs: r.slack_ts,
          alertCount: typeof alertCount === 'number' ? alertCount : 0,
          kinds: typeof kinds === 'string' && kinds !== '' ? kinds.split(',') : [],
        };
      });
    },
  };
}
