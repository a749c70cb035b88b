import type { APIContext } from 'astro';
import { LEGAL_PAGES_OF, legalText, saveLegalText } from '../../../../../../functions/shop/legal.ts';
import { LegalTextSchema, type LegalPage } from '../../../../../lib/admin/shop-settings.schema.ts';
import { errorResponse, noStoreJson, readJson } from '../../../../../lib/http.ts';
import { isLanguage, type Language } from '../../../../../i18n/languages.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';

export const prerender = false;

function target({ params }: APIContext): { language: Language; page: LegalPage } | undefined {
  const { language, page } = params;
  if (!isLanguage(language)) return undefined;
  const known = LEGAL_PAGES_OF[language].find((candidate) => candidate === page);
  return known ? { language, page: known } : undefined;
}

const notFound = () => errorResponse(404, 'not_found', 'errors.notFound');

export const GET = adminEndpoint(async (context) => {
  const text = target(context);
  if (!text) return notFound();
  return noStoreJson(await legalText(text.language, text.page));
});

/** The seller's wording of one legal text in one language. */
export const PUT = adminEndpoint(async (context) => {
  const text = target(context);
  if (!text) return notFound();
  const body = await readJson(context.request, LegalTextSchema);
  if ('response' in body) return body.response;
  await saveLegalText(text.language, text.page, body.data.body);
  return noStoreJson(await legalText(text.language, text.page));
});

/** Back to the shipped wording. */
export const DELETE = adminEndpoint(async (context) => {
  const text = target(context);
  if (!text) return notFound();
  await saveLegalText(text.language, text.page, undefined);
  return noStoreJson(await legalText(text.language, text.page));
});
