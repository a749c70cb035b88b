/**
 * Cross-site request forgery: a state-changing request must come from our own pages. Browsers send
 * Origin on every cross-site POST (whatever the content type: form, text/plain, multipart) and
 * Sec-Fetch-Site on modern ones; either one saying "another site" is refused. Server-to-server
 * callers that sign their requests (Stripe's webhook) are exempt, and so are a payment provider's
 * webhook and callback: the callback is the buyer's browser posting back from the provider's page,
 * carrying only a reference that the server looks up with the provider itself (never trusting the body).
 */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// Mail clients POST one-click unsubscribes (RFC 8058) from their own servers, with a signed token.
const SIGNED_ENDPOINTS = new Set(['/api/stripe/webhook', '/api/mail/unsubscribe', '/api/audience/unsubscribe']);
const PAYMENT_PROVIDER_ENDPOINT = /^\/api\/payments\/[a-z][a-z0-9]*\/(webhook|callback)$/;

/** The endpoints other sites' servers and pages may post to (each verifies what it receives by itself). */
export function isSignedEndpoint(pathname: string): boolean {
  return SIGNED_ENDPOINTS.has(pathname) || PAYMENT_PROVIDER_ENDPOINT.test(pathname);
}

/** `ownOrigins`: where our pages are served from (behind a proxy, the public origin differs from the request URL's). */
export function isCrossSiteWrite(request: Request, url: URL, ownOrigins: string[] = [url.origin]): boolean {
  if (SAFE_METHODS.has(request.method) || isSignedEndpoint(url.pathname)) return false;
  const origin = request.headers.get('origin');
  if (origin !== null) return !ownOrigins.includes(origin);
  const fetchSite = request.headers.get('sec-fetch-site');
  return fetchSite !== null && fetchSite !== 'same-origin' && fetchSite !== 'none';
}
