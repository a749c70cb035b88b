import { sql } from 'kysely';
import { db } from '../db/database.ts';
import { invalid, notFound, ok, type Result } from '../../src/lib/result.ts';
import { NEW_USER_WINDOW_DAYS, USERS_LIST_LIMIT, type Role } from '../../src/lib/admin/users.schema.ts';
import { totalsFromJson, type CurrencyAmount } from '../../src/lib/admin/money-totals.ts';
import { isUuid } from '../../src/lib/uuid.ts';

export interface AdminUserRow {
  id: string;
  fullName: string;
  email: string;
  role: Role;
  joinedAt: string;
  /** Completed purchases, free ones included. */
  purchaseCount: number;
  /** Per currency, never summed across currencies. */
  spent: CurrencyAmount[];
}

export interface UserStats {
  total: number;
  /** Users with at least one completed purchase. */
  buyers: number;
  newLast30Days: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Users, newest first, each with purchase count and spend per currency: ONE query (the spec's
 * client made one call per user). Search matches name or e-mail, Turkish letters folded.
 */
export async function listUsers(search?: string, limit = USERS_LIST_LIMIT): Promise<{ users: AdminUserRow[]; total: number }> {
  const literal = search ? search.replace(/[\\%_]/g, (char) => `\\${char}`) : '';
  const matches = search ? sql`fold_search(u.full_name || ' ' || u.email) LIKE '%' || fold_search(${literal}) || '%'` : sql`true`;
  const { rows } = await sql<{
    id: string;
    full_name: string;
    email: string;
    role: Role;
    created_at: Date;
    purchase_count: number;
    spent: unknown;
    matching: number;
  }>`
    WITH per_currency AS (
      SELECT user_id, currency, count(*) AS purchases, sum(amount_minor) AS amount_minor
      FROM purchases
      WHERE status = 'completed' AND user_id IS NOT NULL
      GROUP BY user_id, currency
    ), per_user AS (
      SELECT user_id, sum(purchases)::int AS purchase_count,
        json_agg(json_build_object('currency', currency, 'amountMinor', amount_minor) ORDER BY currency) FILTER (WHERE amount_minor > 0) AS spent
      FROM per_currency
      GROUP BY user_id
    )
    SELECT u.id, u.full_name, u.email, u.role, u.created_at, coalesce(pu.purchase_count, 0) AS purchase_count, pu.spent,
      count(*) OVER ()::int AS matching
    FROM users u
    LEFT JOIN per_user pu ON pu.user_id = u.id
    WHERE ${matches}
    ORDER BY u.created_at DESC, u.id
    LIMIT ${limit}`.execute(db());
  return {
    total: rows[0]?.matching ?? 0,
    users: rows.map((row) => ({
      id: row.id,
      fullName: row.full_name,
      email: row.email,
      role: row.role,
      joinedAt: row.created_at.toISOString(),
      purchaseCount: row.purchase_count,
      spent: totalsFromJson(row.spent),
    })),
  };
}

export async function userStats(now: Date = new Date()): Promise<UserStats> {
  const since = new Date(now.getTime() - NEW_USER_WINDOW_DAYS * DAY_MS);
  const { rows } = await sql<UserStats>`
    SELECT
      (SELECT count(*) FROM users)::int AS total,
      (SELECT count(DISTINCT user_id) FROM purchases WHERE status = 'completed' AND user_id IS NOT NULL)::int AS buyers,
      (SELECT count(*) FROM users WHERE created_at >= ${since})::int AS "newLast30Days"`.execute(db());
  return rows[0]!;
}

/** Promotes or demotes a user. An admin never changes their own role, so an admin always remains. */
export async function setUserRole(actorId: string, targetId: string, role: Role): Promise<Result<{ id: string; role: Role }>> {
  if (actorId === targetId) return invalid('own_role', 'admin.people.users.ownRole');
  if (!isUuid(targetId)) return notFound;
  const result = await db()
    .updateTable('users')
    .set({ role, updated_at: new Date() })
    .where('id', '=', targetId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? ok({ id: targetId, role }) : notFound;
}
