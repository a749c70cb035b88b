import type { APIContext, APIRoute } from 'astro';
import type { SessionUser } from '../../functions/auth/session.ts';
import { errorResponse } from '../lib/http.ts';
import { requireAdmin } from './guards.ts';

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Every admin endpoint: `requireAdmin` on the server first (401 signed out, 403 not an admin), then
 * the handler. Constraint violations become the spec's messages, never a 500.
 */
export function adminEndpoint(handler: (context: APIContext, admin: SessionUser) => Promise<Response>): APIRoute {
  return async (context) => {
    const admin = await requireAdmin(context);
    if (admin instanceof Response) return admin;
    try {
      return await handler(context, admin);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === UNIQUE_VIOLATION) return errorResponse(409, 'duplicate', 'admin.errors.duplicate');
      if (code === FOREIGN_KEY_VIOLATION) return errorResponse(409, 'dependencies', 'admin.errors.dependencies');
      console.error(`[admin] ${context.request.method} ${context.url.pathname} failed:`, (error as Error).message);
      return errorResponse(500, 'database', 'admin.errors.database');
    }
  };
}
