import type { APIRoute } from 'astro';
import { recordClientLog } from '../../../functions/admin/client-logs.ts';
import { ClientLogSchema } from '../../lib/admin/logs.schema.ts';
import { MAX_CLIENT_LOG_BODY_BYTES } from '../../lib/admin/log-limits.ts';
import { LIMITS } from '../../../functions/limits/limits.ts';
import { errorResponse, NO_STORE, readJson } from '../../lib/http.ts';
import { clientIp } from '../../server/client-ip.ts';
import { currentUser } from '../../server/guards.ts';

export const prerender = false;

/**
 * Public: browsers report errors here (src/lib/logger.ts). Validated, bounded in size, and limited
 * per client address, so it cannot be used to fill the database.
 */
export const POST: APIRoute = async (context) => {
  const body = await readJson(context.request, ClientLogSchema, MAX_CLIENT_LOG_BODY_BYTES);
  if ('response' in body) return body.response;
  const user = await currentUser(context);
  const outcome = await recordClientLog(body.data, {
    clientAddress: clientIp(context.request, context.clientAddress),
    userId: user?.id ?? null,
  });
  if (outcome === 'rate_limited') {
    const response = errorResponse(429, 'rate_limited', 'errors.tooManyRequests');
    response.headers.set('Retry-After', String(LIMITS.clientReportsPerClient.windowS));
    return response;
  }
  return new Response(null, { status: 204, headers: NO_STORE });
};
