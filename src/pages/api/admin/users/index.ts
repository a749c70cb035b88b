import { listUsers, userStats } from '../../../../../functions/admin/users.ts';
import { UserSearchSchema } from '../../../../lib/admin/users.schema.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { noStoreJson } from '../../../../lib/http.ts';

export const prerender = false;

/** Users with purchase count and spend per currency (one query), and the three stats. */
export const GET = adminEndpoint(async (context) => {
  const { q } = UserSearchSchema.parse({ q: context.url.searchParams.get('q') ?? undefined });
  const [list, stats] = await Promise.all([listUsers(q || undefined), userStats()]);
  return noStoreJson({ ...list, stats });
});
