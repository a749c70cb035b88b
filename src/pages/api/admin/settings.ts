import { saveShopSettings, storedShopSettings } from '../../../../functions/shop/settings.ts';
import { ShopSettingsSchema } from '../../../lib/admin/shop-settings.schema.ts';
import { noStoreJson, readJson } from '../../../lib/http.ts';
import { adminEndpoint } from '../../../server/admin-endpoint.ts';

export const prerender = false;

export const GET = adminEndpoint(async () => {
  const { settings, saved } = await storedShopSettings();
  return noStoreJson({ settings, saved });
});

/** The whole identity at once; every cached page is purged, in every instance. */
export const PUT = adminEndpoint(async ({ request }) => {
  const body = await readJson(request, ShopSettingsSchema);
  if ('response' in body) return body.response;
  await saveShopSettings(body.data);
  return noStoreJson({ settings: body.data });
});
