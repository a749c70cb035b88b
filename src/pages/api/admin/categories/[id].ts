import {
  deleteCategory,
  getCategory,
  setCategoryActive,
  updateCategory,
} from '../../../../../functions/courses/admin-categories.ts';
import { CategoryActiveSchema, CategorySchema } from '../../../../lib/admin/categories.schema.ts';
import { errorResponse, noStoreJson, readJson, resultResponse } from '../../../../lib/http.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { toAdminCategoryRow } from '../../../../server/admin-content.ts';

export const prerender = false;

const asBody = (category: Parameters<typeof toAdminCategoryRow>[0]) => ({ category: toAdminCategoryRow(category) });

export const GET = adminEndpoint(async ({ params }) => {
  const category = await getCategory(params.id ?? '');
  return category ? noStoreJson(asBody(category)) : errorResponse(404, 'not_found', 'errors.notFound');
});

/** A new slug keeps its courses: they follow through the foreign key's ON UPDATE CASCADE. */
export const PUT = adminEndpoint(async ({ params, request }) => {
  const body = await readJson(request, CategorySchema);
  if ('response' in body) return body.response;
  return resultResponse(await updateCategory(params.id ?? '', body.data), asBody);
});

/** Active ⇄ inactive. */
export const PATCH = adminEndpoint(async ({ params, request }) => {
  const body = await readJson(request, CategoryActiveSchema);
  if ('response' in body) return body.response;
  return resultResponse(await setCategoryActive(params.id ?? '', body.data.active), asBody);
});

/** Refused while courses use the category: 409 with how many, and nothing deleted. */
export const DELETE = adminEndpoint(async ({ params }) =>
  resultResponse(await deleteCategory(params.id ?? ''), (deleted) => deleted),
);
