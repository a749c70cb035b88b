import type { APIContext, APIRoute, AstroGlobal } from 'astro';
import { errorResponse, NO_STORE, readText, type BodyRead } from '../lib/http.ts';
import { fieldErrors } from '../lib/field-errors.ts';
import type { PostedForm } from '../lib/posted-form.ts';
import type { z } from '../lib/zod.ts';

/**
 * Forms that work before their script does (decision 34): the browser posts a form to its own page
 * when JavaScript is off or the island has not hydrated yet. The page reads it here, checks it with
 * the island's zod schema and sends it through the very endpoint the island calls, in-process, then
 * answers with the next page (303) or itself again with the errors and what was typed.
 */
export type PageContext = Pick<AstroGlobal, 'request' | 'url' | 'clientAddress' | 'locals'>;

/** As large as any of these forms gets (the contact message is the longest); JSON endpoints allow the same. */
const MAX_FORM_BODY_BYTES = 64 * 1024;

/** A page's posted form as strings (URL-encoded, the browser's default), or the refusal to answer instead. */
export async function readFormPost(request: Request): Promise<BodyRead<{ fields: Record<string, string> }>> {
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded'))
    return { response: errorResponse(415, 'unsupported_media_type', 'errors.badRequest') };
  const read = await readText(request, MAX_FORM_BODY_BYTES);
  if ('response' in read) return read;
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(read.text)) fields[name] ??= value;
  return { fields };
}

/**
 * Sends a JSON body to one of the shop's endpoints in-process, as the island's fetch would reach it:
 * the page's cookies, client address, browser and resolved session, so guards, limits, sessions and
 * notices are the same. `params`: the endpoint's own (`[courseId]`).
 */
export function callEndpoint(
  route: APIRoute,
  context: PageContext,
  path: string,
  body: unknown,
  { method = 'POST', params = {} }: { method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; params?: Record<string, string> } = {},
): Promise<Response> {
  const url = new URL(path, context.url);
  const headers = new Headers({ 'content-type': 'application/json', origin: context.url.origin });
  for (const name of ['cookie', 'user-agent', 'accept-language', 'x-forwarded-for', 'forwarded'])
    copyHeader(context.request.headers, headers, name);
  const request = new Request(url, { method, headers, body: JSON.stringify(body) });
  // The routes read only these from their context.
  const routeContext: Pick<APIContext, 'request' | 'url' | 'clientAddress' | 'params' | 'locals'> = {
    request,
    url,
    clientAddress: context.clientAddress,
    params,
    locals: context.locals,
  };
  return Promise.resolve(route(routeContext as APIContext));
}

function copyHeader(from: Headers, to: Headers, name: string): void {
  const value = from.get(name);
  if (value !== null) to.set(name, value);
}

/** The next page after a form's post, with the cookies the endpoint set (a session, for sign-in). */
export function seeOther(location: string, from?: Response): Response {
  const headers = new Headers({ Location: location, ...NO_STORE });
  for (const cookie of from?.headers.getSetCookie() ?? []) headers.append('Set-Cookie', cookie);
  return new Response(null, { status: 303, headers });
}

/**
 * A posted form checked by its island's schema: the data, or the page's answer showing the errors
 * with what was typed (`kept`: the fields that may be shown again, never a password).
 */
export function checkPosted<S extends z.ZodType>(
  schema: S,
  form: string,
  fields: Record<string, string>,
  kept: readonly string[],
): { data: z.output<S> } | { posted: PostedForm } {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return { data: parsed.data };
  return { posted: { form, values: keptValues(fields, kept), errors: fieldErrors(parsed.error), failure: null } };
}

/** The posted fields that may be shown again. */
export function keptValues(fields: Record<string, string>, kept: readonly string[]): Record<string, string> {
  return Object.fromEntries(kept.map((name) => [name, fields[name] ?? '']));
}
