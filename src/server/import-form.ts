import type { APIContext, APIRoute } from 'astro';
import { importView } from '../../functions/imports/admin.ts';
import { POST as uploadRoute } from '../pages/api/admin/import/index.ts';
import { POST as importRoute } from '../pages/api/admin/import/[id].ts';
import { ImportRequestSchema, importRequestFromForm } from '../lib/admin/import.schema.ts';
import type { ErrorBody } from '../lib/http.ts';
import { isUuid } from '../lib/uuid.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import { callEndpoint, readFormPost, seeOther, type PageContext } from './form-post.ts';

/**
 * Admin → Import's two forms, posted by the browser itself (no script on this page, decision 34):
 * the upload (multipart) goes to the upload endpoint as it came, the mapping to the import endpoint
 * as its JSON. Done, the page is shown again for that upload (303); refused, with the endpoint's message.
 */
export type ImportFormOutcome = Response | { failure: MessageKey; status: number };

export async function importPosted(page: PageContext, lang: Language): Promise<ImportFormOutcome> {
  const type = (page.request.headers.get('content-type') ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data')) return answered(await forwarded(uploadRoute, page, '/api/admin/import'), lang);
  const read = await readFormPost(page.request);
  if ('response' in read) return read.response;
  const id = read.fields.id ?? '';
  const stored = isUuid(id) ? await importView(id) : undefined;
  if (!stored?.ok) return { failure: 'errors.notFound', status: 404 };
  const parsed = ImportRequestSchema.safeParse(importRequestFromForm(read.fields, stored.value.products.length));
  if (!parsed.success) return { failure: 'admin.import.errors.mapping', status: 400 };
  return answered(await callEndpoint(importRoute, page, `/api/admin/import/${id}`, parsed.data, { params: { id } }), lang);
}

/** The page's own multipart request, handed on unread to the endpoint (which reads it through its byte limit). */
function forwarded(route: APIRoute, page: PageContext, path: string): Promise<Response> {
  const url = new URL(path, page.url);
  const context: Pick<APIContext, 'request' | 'url' | 'clientAddress' | 'params' | 'locals'> = {
    request: page.request,
    url,
    clientAddress: page.clientAddress,
    params: {},
    locals: page.locals,
  };
  return Promise.resolve(route(context as APIContext));
}

async function answered(response: Response, lang: Language): Promise<ImportFormOutcome> {
  if (response.ok) {
    const { import: view } = (await response.json()) as { import: { id: string } };
    return seeOther(`${localizedPath(lang, '/admin/import')}?id=${view.id}`);
  }
  const body = (await response.json().catch(() => undefined)) as ErrorBody | undefined;
  return { failure: body?.error.message ?? 'errors.badRequest', status: response.status };
}
