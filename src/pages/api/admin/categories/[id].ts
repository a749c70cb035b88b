import { deleteCategory, getCategory, setCategoryActive, updateCategory } from '../../../../../functions/admin/categories.ts';
import { CategoryActiveSchema, CategorySchema } from '../../../../lib/admin/categories.schema.ts';
import { errorResponse, readJson, type ErrorBody } from '../../../../lib/http.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { duplicateAt, noStore, toAdminCategoryRow } from '../../../../server/admin-content.ts';

export const prerender = false;

const notFound = () => errorResponse(404, 'not_found', 'errors.notFound');

export const GET = adminEndpoint(async ({ params }) => {
  const category = await getCategory(params.id ?? '');
  return category ? Response.json({ category: toAdminCategoryRow(category) }, { headers: noStore }) : notFound();
});

/** A new slug keeps its courses: they follow through the foreign key's ON UPDATE CASCADE. */
export const PUT = adminEndpoint(async ({ params, request }) => {
  const existing = await getCategory(params.id ?? '');
  if (!existing) return notFound();
  const body = await readJson(request, CategorySchema);
  if ('response' in body) return body.response;
  try {
    const category = await updateCategory(existing.id, body.data);
    return category ? Response.json({ category: toAdminCategoryRow(category) }, { headers: noStore }) : notFound();
  } catch (error) {
    const conflict = duplicateAt(error, 'slug');
    if (conflict) return conflict;
    throw error;
  }
});

/** Active ⇄ inactive. */
export const PATCH = adminEndpoint(async ({ params, request }) => {
  const body = await readJson(request, CategoryActiveSchema);
  if ('response' in body) return body.response;
  if (!(await setCategoryActive(params.id ?? '', body.data.active))) return notFound();
  const category = await getCategory(params.id ?? '');
  return category ? Response.json({ category: toAdminCategoryRow(category) }, { headers: noStore }) : notFound();
});

/** Refused while courses use the category: 409 with how many, and nothing deleted. */
export const DELETE = adminEndpoint(async ({ params }) => {
  const result = await deleteCategory(params.id ?? '');
  if (result.deleted) return Response.json({ deleted: true }, { headers: noStore });
  if (result.reason === 'not_found') return notFound();
  const error: ErrorBody['error'] = { code: 'dependencies', message: 'admin.errors.dependencies' };
  return Response.json({ error, courseCount: result.courseCount }, { status: 409, headers: noStore });
});
