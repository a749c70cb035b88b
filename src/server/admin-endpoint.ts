import type { APIContext, APIRoute } from 'astro';
import type { SessionUser } from '../../functions/auth/session.ts';
import { errorResponse } from '../lib/http.ts';
import { requireAdmin } from './guards.ts';
import { log, requestId } from '../../functions/log.ts';

/**
 * Every admin endpoint: `requireAdmin` on the server first (401 signed out, 403 not an admin), then
 * the handler. Expected refusals come back from the use cases as results; anything else is a bug,
 * logged, and answered with the spec's "database error" message, never a stack trace.
 */
export function adminEndpoint(handler: (context: APIContext, admin: SessionUser) => Promise<Response>): APIRoute {
  return async (context) => {
    const admin = await requireAdmin(context);
    if (admin instanceof Response) return admin;
    try {
      return await handler(context, admin);
    } catch (error) {
      log.error(
        { reqId: requestId(context.request), method: context.request.method, path: context.url.pathname, err: error },
        'admin request failed',
      );
      return errorResponse(500, 'database', 'admin.errors.database');
    }
  };
}
