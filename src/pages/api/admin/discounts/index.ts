import { listDiscounts, saveDiscount } from '../../../../../functions/discounts/admin.ts';
import { DiscountSchema } from '../../../../lib/admin/discounts.schema.ts';
import { noStoreJson, readJson, resultResponse } from '../../../../lib/http.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';

export const prerender = false;

export const GET = adminEndpoint(async () => noStoreJson({ discounts: await listDiscounts() }));

/** A taken code is refused at the code field (409). */
export const POST = adminEndpoint(async ({ request }) => {
  const body = await readJson(request, DiscountSchema);
  if ('response' in body) return body.response;
  return resultResponse(await saveDiscount(body.data), (saved) => saved, 201);
});
