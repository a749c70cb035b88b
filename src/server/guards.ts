import type { AstroGlobal, APIContext } from 'astro';
import { getSessionUser, type SessionUser } from '../../functions/auth/session.ts';
import { adminGate } from '../../functions/auth/second-factor.ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import { errorResponse } from '../lib/http.ts';

/**
 * Server-side guards (server-only: pages and endpoints, never islands). Each returns the user,
 * or the Response to send instead: a redirect for pages, 401/403 for endpoints.
 */
type Context = Pick<APIContext | AstroGlobal, 'request' | 'url' | 'locals'>;

export async function currentUser(context: Context): Promise<SessionUser | undefined> {
  if (!('sessionUser' in context.locals)) context.locals.sessionUser = await getSessionUser(context.request.headers);
  return context.locals.sessionUser;
}

export async function requireUser(context: Context, lang?: Language): Promise<SessionUser | Response> {
  const user = await currentUser(context);
  if (user) return user;
  if (!lang) return errorResponse(401, 'unauthorized', 'errors.unauthorized');
  const next = context.url.pathname + context.url.search;
  return redirect(`${localizedPath(lang, '/login')}?next=${encodeURIComponent(next)}`);
}

/**
 * An admin whose session proved a second factor. Without two-factor the admin is sent to turn it on
 * (Settings), with it but not proved in this session to enter a code; an API says so with a 403.
 */
export async function requireAdmin(context: Context, lang?: Language): Promise<SessionUser | Response> {
  const user = await requireUser(context, lang);
  if (user instanceof Response) return user;
  if (user.role !== 'admin')
    return lang ? redirect(localizedPath(lang, '/dashboard')) : errorResponse(403, 'forbidden', 'errors.forbidden');
  const gate = await adminGate(user);
  if (gate === 'open') return user;
  if (!lang)
    return gate === 'enrol'
      ? errorResponse(403, 'two_factor_required', 'twoFactor.requiredForAdmins')
      : errorResponse(403, 'second_factor_required', 'twoFactor.verifyForAdmin');
  if (gate === 'enrol') return redirect(`${localizedPath(lang, '/dashboard/settings')}?twoFactor=required#two-factor`);
  const next = context.url.pathname + context.url.search;
  return redirect(`${localizedPath(lang, '/two-factor')}?next=${encodeURIComponent(next)}`);
}

function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { Location: location, 'Cache-Control': 'private, no-store' } });
}
