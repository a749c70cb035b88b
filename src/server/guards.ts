import type { AstroGlobal, APIContext } from 'astro';
import { getSessionState, type SessionState, type SessionUser } from '../../functions/auth/session.ts';
import { adminNeedsTwoFactor } from '../../functions/auth/second-factor.ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import { errorResponse, NO_STORE } from '../lib/http.ts';

/**
 * Server-side guards (server-only: pages and endpoints, never islands). Each returns the user,
 * or the Response to send instead: a redirect for pages, 401/403 for endpoints.
 */
type Context = Pick<APIContext | AstroGlobal, 'request' | 'url' | 'locals'>;

/**
 * The request's session, resolved once per request: signed in, signed out, or waiting on the second
 * factor of an account with two-factor on (functions/auth/session.ts decides which).
 */
export async function currentSession(context: Context): Promise<SessionState> {
  context.locals.session ??= await getSessionState(context.request.headers);
  return context.locals.session;
}

/** The signed-in user, or undefined: a session still waiting on its second factor is not signed in. */
export async function currentUser(context: Context): Promise<SessionUser | undefined> {
  const session = await currentSession(context);
  return session.status === 'signed-in' ? session.user : undefined;
}

/**
 * A signed-in user. Signed out, a page sends to the login page and an API answers 401; a session
 * waiting on its second factor is sent to the two-factor page (an API answers 403), and comes back here.
 */
export async function requireUser(context: Context, lang?: Language): Promise<SessionUser | Response> {
  const session = await currentSession(context);
  if (session.status === 'signed-in') return session.user;
  if (session.status === 'second-factor-pending')
    return lang ? toSecondFactor(context, lang) : errorResponse(403, 'second_factor_required', 'twoFactor.secondFactorRequired');
  if (!lang) return errorResponse(401, 'unauthorized', 'errors.unauthorized');
  return redirect(`${localizedPath(lang, '/login')}?next=${encodeURIComponent(context.url.pathname + context.url.search)}`);
}

/** To the two-factor page, which comes back to this request's path once the code is given. */
export function toSecondFactor(context: Context, lang: Language): Response {
  return redirect(`${localizedPath(lang, '/two-factor')}?next=${encodeURIComponent(context.url.pathname + context.url.search)}`);
}

/**
 * A signed-in admin. Wherever the developer tools are off, an admin without two-factor is sent to turn
 * it on (Settings) and an API says so with a 403; with it on, being signed in means the session proved it.
 */
export async function requireAdmin(context: Context, lang?: Language): Promise<SessionUser | Response> {
  const user = await requireUser(context, lang);
  if (user instanceof Response) return user;
  if (user.role !== 'admin')
    return lang ? redirect(localizedPath(lang, '/dashboard')) : errorResponse(403, 'forbidden', 'errors.forbidden');
  if (!(await adminNeedsTwoFactor(user))) return user;
  return lang
    ? redirect(`${localizedPath(lang, '/dashboard/settings')}?twoFactor=required#two-factor`)
    : errorResponse(403, 'two_factor_required', 'twoFactor.requiredForAdmins');
}

function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { Location: location, ...NO_STORE } });
}
