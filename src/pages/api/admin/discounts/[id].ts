import { deleteDiscount, saveDiscount } from '../../../../../functions/discounts/admin.ts';
import { DiscountSchema } from '../../../../lib/admin/discounts.schema.ts';
import { errorResponse, readJson, resultResponse } from '../../../../lib/http.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { isUuid } from '../../../../lib/uuid.ts';

export const prerender = false;

const notFound = () => errorResponse(404, 'not_found', 'errors.notFound');

export const PUT = adminEndpoint(async ({ params, request }) => {
  if (!isUuid(params.id)) return notFound();
  const body = await readJson(request, DiscountSchema);
  if ('response' in body) return body.response;
  return resultResponse(await saveDiscount(body.data, params.id), (saved) => saved);
});

export const DELETE = adminEndpoint(async ({ params }) => {
  if (!isUuid(params.id)) return notFound();
  return resultResponse(await deleteDiscount(params.id), (deleted) => deleted);
});
