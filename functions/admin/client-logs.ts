import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { type LogEntry, type LogLevel } from '../../src/lib/admin/log-limits.ts';
import { LIMITS } from '../limits/limits.ts';
import { type ClientLogReport } from '../../src/lib/admin/logs.schema.ts';

/** Any constant shared by every instance: the advisory-lock namespace of per-address report limits. */
const RATE_LOCK_NAMESPACE = 724_311_008;
const REPORTS = LIMITS.clientReportsPerClient;
export const SERVER_LOGS_LIMIT = 500;
/** Reports older than this are deleted as new ones arrive: the table cannot grow without bound. */
export const CLIENT_LOG_RETENTION_DAYS = 30;

/**
 * Stores a browser's report, at most `LIMITS.clientReportsPerClient` per address per window. The count and
 * the insert happen under a per-address lock, so concurrent reports cannot slip past the limit.
 */
export async function recordClientLog(
  report: ClientLogReport,
  context: { clientAddress: string; userId: string | null },
): Promise<'stored' | 'rate_limited'> {
  return db()
    .transaction()
    .execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${RATE_LOCK_NAMESPACE}, hashtext(${context.clientAddress}))`.execute(trx);
      const { recent } = await trx
        .selectFrom('client_logs')
        .select((eb) => eb.fn.countAll<number>().as('recent'))
        .where('client_address', '=', context.clientAddress)
        .where('created_at', '>', new Date(Date.now() - REPORTS.windowS * 1000))
        .executeTakeFirstOrThrow();
      if (Number(recent) >= REPORTS.max) return 'rate_limited';
      await trx
        .insertInto('client_logs')
        .values({
          level: report.level,
          message: report.message,
          data: report.data === undefined ? null : JSON.stringify(report.data),
          stack: report.stack ?? null,
          url: report.url ?? null,
          user_agent: report.userAgent ?? null,
          user_id: context.userId,
          client_address: context.clientAddress,
          reported_at: report.timestamp ? new Date(report.timestamp) : null,
        })
        .execute();
      await trx
        .deleteFrom('client_logs')
        .where('created_at', '<', new Date(Date.now() - CLIENT_LOG_RETENTION_DAYS * 24 * 60 * 60 * 1000))
        .execute();
      return 'stored';
    });
}

/** Server-side logs, newest first, optionally by level and text. */
export async function listClientLogs(
  filter: { level?: LogLevel | undefined; search?: string | undefined } = {},
  limit = SERVER_LOGS_LIMIT,
): Promise<LogEntry[]> {
  let query = db()
    .selectFrom('client_logs')
    .select(['created_at', 'level', 'message', 'data', 'user_agent', 'url', 'user_id', 'stack'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
  if (filter.level) query = query.where('level', '=', filter.level);
  if (filter.search) {
    const literal = `%${filter.search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    query = query.where((eb) =>
      eb.or([eb('message', 'ilike', literal), eb('url', 'ilike', literal), eb(sql<string>`data::text`, 'ilike', literal)]),
    );
  }
  const rows = await query.execute();
  return rows.map((row) => ({
    timestamp: row.created_at.toISOString(),
    level: row.level,
    message: row.message,
    ...(row.data === null ? {} : { data: row.data }),
    userAgent: row.user_agent ?? undefined,
    url: row.url ?? undefined,
    userId: row.user_id,
    stack: row.stack ?? undefined,
  }));
}

export async function clearClientLogs(): Promise<number> {
  const result = await db().deleteFrom('client_logs').executeTakeFirst();
  return Number(result.numDeletedRows);
}
