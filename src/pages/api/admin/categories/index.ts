import { createCategory, listCategories } from '../../../../../functions/courses/admin-categories.ts';
import { CategorySchema } from '../../../../lib/admin/categories.schema.ts';
import { noStoreJson, readJson, resultResponse } from '../../../../lib/http.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { toAdminCategoryRow } from '../../../../server/admin-content.ts';

export const prerender = false;

/** Every category, active or not, by sort order, each with the number of courses using it. */
export const GET = adminEndpoint(async () => {
  const categories = await listCategories();
  return noStoreJson({ categories: categories.map(toAdminCategoryRow) });
});

/** A taken slug is refused at the slug field (409). */
export const POST = adminEndpoint(async ({ request }) => {
  const body = await readJson(request, CategorySchema);
  if ('response' in body) return body.response;
  return resultResponse(await createCategory(body.data), (category) => ({ category: toAdminCategoryRow(category) }), 201);
});
