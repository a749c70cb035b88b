import { paymentSettings, savePaymentChoices } from '../../../../functions/shop/payment-choices.ts';
import { PaymentChoicesSchema } from '../../../lib/admin/payment-choices.schema.ts';
import { errorResponse, noStoreJson, readJson } from '../../../lib/http.ts';
import { adminEndpoint } from '../../../server/admin-endpoint.ts';

export const prerender = false;

export const GET = adminEndpoint(async () => noStoreJson(await paymentSettings()));

/** Which provider takes each currency; course pages say again whether they are for sale. */
export const PUT = adminEndpoint(async ({ request }) => {
  const body = await readJson(request, PaymentChoicesSchema);
  if ('response' in body) return body.response;
  const saved = await savePaymentChoices(body.data);
  if (!saved.ok) return errorResponse(400, 'unknown_provider', 'admin.payments.unknownProvider', saved.fields);
  return noStoreJson(await paymentSettings());
});
