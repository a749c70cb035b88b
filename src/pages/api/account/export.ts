import type { APIRoute } from 'astro';
import { exportAccountData } from '../../../../functions/account/account.ts';
import { requireUser } from '../../../server/guards.ts';
import { NO_STORE } from '../../../lib/http.ts';

export const prerender = false;

/** "Download my data": everything kept about the signed-in person, as a JSON file. */
export const GET: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const data = await exportAccountData(user.id);
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="microcourses-my-data-${data.exportedAt.slice(0, 10)}.json"`,
      ...NO_STORE,
    },
  });
};
