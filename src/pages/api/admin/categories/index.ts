import { createCategory, listCategories } from '../../../../../functions/admin/categories.ts';
import { CategorySchema } from '../../../../lib/admin/categories.schema.ts';
import { readJson } from '../../../../lib/http.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { duplicateAt, noStore, toAdminCategoryRow } from '../../../../server/admin-content.ts';

export const prerender = false;

/** Every category, active or not, by sort order, each with the number of courses using it. */
export const GET = adminEndpoint(async () => {
  const categories = await listCategories();
  return Response.json({ categories: categories.map(toAdminCategoryRow) }, { headers: noStore });
});

export const POST = adminEndpoint(async ({ request }) => {
  const body = await readJson(request, CategorySchema);
  if ('response' in body) return body.response;
  try {
    const category = await createCategory(body.data);
    return Response.json({ category: toAdminCategoryRow(category) }, { status: 201, headers: noStore });
  } catch (error) {
    const conflict = duplicateAt(error, 'slug');
    if (conflict) return conflict;
    throw error;
  }
});
