import { listReviewsForAdmin } from '../../../../../functions/reviews/admin.ts';
import { SearchText } from '../../../../lib/admin/search-text.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { z } from '../../../../lib/zod.ts';
import { noStoreJson } from '../../../../lib/http.ts';

export const prerender = false;

const ListQuery = z.object({
  q: SearchText.catch(''),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

/** Every review, newest first, 20 a page; `?q=` searches course, text, reply and author. */
export const GET = adminEndpoint(async ({ url }) => {
  const { q, page } = ListQuery.parse({ q: url.searchParams.get('q') ?? '', page: url.searchParams.get('page') ?? 1 });
  return noStoreJson(await listReviewsForAdmin({ search: q, page }));
});
