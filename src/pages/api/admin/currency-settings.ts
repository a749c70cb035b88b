import { saveCurrencySettings, storedCurrencySettings } from '../../../../functions/shop/currencies.ts';
import { CurrencySettingsSchema } from '../../../lib/admin/currency-settings.schema.ts';
import { noStoreJson, readJson } from '../../../lib/http.ts';
import { adminEndpoint } from '../../../server/admin-endpoint.ts';

export const prerender = false;

export const GET = adminEndpoint(async () => {
  const { settings, saved } = await storedCurrencySettings();
  return noStoreJson({ settings, saved });
});

/** Rates, default display currencies and home limits at once; every cached page is purged, in every instance. */
export const PUT = adminEndpoint(async ({ request }) => {
  const body = await readJson(request, CurrencySettingsSchema);
  if ('response' in body) return body.response;
  await saveCurrencySettings(body.data);
  return noStoreJson({ settings: body.data });
});
