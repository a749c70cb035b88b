import type { APIRoute } from 'astro';
import { authRequestRefusal, readFromAuth, submitToAuth } from '../../../../functions/auth/auth-requests.ts';
import type { AuthRefusal } from '../../../../functions/auth/refusals.ts';
import { AUTH_REQUEST_SCHEMAS, type AuthRequestPath } from '../../../lib/auth.schema.ts';
import {
  errorResponse,
  invalidInput,
  isJsonRequest,
  MAX_JSON_BODY_BYTES,
  parseJsonText,
  readText,
  tooManyRequests,
} from '../../../lib/http.ts';
import { clientIp } from '../../../server/client-ip.ts';

export const prerender = false;

const BASE_PATH = '/api/auth';

/** better-auth's endpoints behind the shop's door; the policy is functions/auth/auth-requests.ts. */
export const ALL: APIRoute = async ({ request, clientAddress, url }) => {
  const ip = clientIp(request, clientAddress);
  const path = url.pathname.slice(BASE_PATH.length);
  const refused = await authRequestRefusal(path, request.headers);
  if (refused) return refusalResponse(refused);
  if (['GET', 'HEAD'].includes(request.method)) return apiErrors(await readFromAuth(request, path, ip));

  const read = await readText(request, MAX_JSON_BODY_BYTES);
  if ('response' in read) return read.response;
  const checked = checkedFields(request, path as AuthRequestPath, read.text);
  if ('response' in checked) return checked.response;
  const answer = await submitToAuth({ request, path, ip, body: read.text, fields: checked.fields });
  return 'refusal' in answer ? refusalResponse(answer.refusal) : apiErrors(answer.response);
};

/** A body better-auth may see: JSON, not hostile, and valid by the islands' rules where it has some. */
function checkedFields(
  request: Request,
  path: AuthRequestPath,
  body: string,
): { fields: Record<string, unknown> } | { response: Response } {
  const schema = AUTH_REQUEST_SCHEMAS[path] as (typeof AUTH_REQUEST_SCHEMAS)[AuthRequestPath] | undefined;
  if (body === '' && !schema) return { fields: {} };
  if (!isJsonRequest(request)) return { response: errorResponse(415, 'unsupported_media_type', 'errors.badRequest') };
  const parsed = parseJsonText(body);
  if ('response' in parsed) return parsed;
  if (!schema) return { fields: {} };
  const valid = schema.safeParse(parsed.value);
  return valid.success ? { fields: valid.data } : { response: invalidInput(valid.error) };
}

function refusalResponse({ status, code, message, retryAfterS }: AuthRefusal): Response {
  return retryAfterS === undefined ? errorResponse(status, code, message) : tooManyRequests(retryAfterS, message);
}

/** better-auth answers a path it does not know with an empty 404: the API's errors are JSON. */
function apiErrors(response: Response): Response {
  const bodyless = !(response.headers.get('content-type') ?? '').includes('json');
  return response.status === 404 && bodyless ? errorResponse(404, 'not_found', 'errors.notFound') : response;
}
