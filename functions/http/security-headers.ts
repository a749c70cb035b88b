import type { ServerResponse } from 'node:http';

/**
 * Headers every response gets, whatever produced it (static file, page cache, Astro, an endpoint, a
 * redirect, an error). Pages carry their own Content-Security-Policy (Astro hashes its scripts); this
 * adds what a <meta> policy cannot (frame-ancestors), and a strict policy for everything else.
 * X-Frame-Options is not sent: frame-ancestors replaces it in every browser the shop supports.
 */
export const STRICT_CSP = "default-src 'none'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const ALWAYS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};
/** What only a document (a page a browser shows) reads: sent with HTML, not with every script or image. */
const DOCUMENT = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};
const HSTS = 'max-age=63072000; includeSubDomains';

export function withFrameAncestors(policy: string): string {
  return /frame-ancestors/.test(policy) ? policy : `${policy.replace(/;\s*$/, '')}; frame-ancestors 'none'`;
}

const isDocument = (type: string | number | string[] | undefined) => /^text\/html\b/i.test(String(type ?? ''));

/**
 * The security headers for a response whose own headers are known in advance (a static file, a cached
 * page), as one list to send with them: computed once per kind of response, not per request. Its own
 * headers win over the defaults (a page's policy, a stricter Referrer-Policy).
 */
export function securityHeadersFor(
  own: Record<string, string | number>,
  { production }: { production: boolean },
): Record<string, string> {
  const lower = new Set(Object.keys(own).map((name) => name.toLowerCase()));
  const policy = Object.entries(own).find(([name]) => name.toLowerCase() === 'content-security-policy')?.[1];
  const type = Object.entries(own).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...ALWAYS, ...(isDocument(type) ? DOCUMENT : {}) })) {
    if (!lower.has(name.toLowerCase())) headers[name] = value;
  }
  if (production) headers['Strict-Transport-Security'] = HSTS;
  headers['Content-Security-Policy'] = policy ? withFrameAncestors(String(policy)) : STRICT_CSP;
  return headers;
}

/** Installs the headers on a response Astro or an endpoint writes, before any handler writes to it. */
export function applySecurityHeaders(res: ServerResponse, { production }: { production: boolean }): void {
  for (const [name, value] of Object.entries(ALWAYS)) res.setHeader(name, value);
  if (production) res.setHeader('Strict-Transport-Security', HSTS);
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = (...args: unknown[]) => {
    // Headers passed to writeHead win over setHeader: read the final ones after merging.
    const [status, ...rest] = args;
    const headers = rest.find((arg) => arg && typeof arg === 'object') as Record<string, string | string[] | number> | undefined;
    if (headers) for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    const policy = res.getHeader('content-security-policy');
    res.setHeader('Content-Security-Policy', policy ? withFrameAncestors(String(policy)) : STRICT_CSP);
    if (isDocument(res.getHeader('content-type')))
      for (const [name, value] of Object.entries(DOCUMENT)) if (!res.hasHeader(name)) res.setHeader(name, value);
    // Whatever does not say it may be shared (static files, cached pages, covers) is private: a CDN
    // or proxy must never keep a signed-in page, a session answer or a download.
    if (!res.hasHeader('cache-control') || res.hasHeader('set-cookie')) res.setHeader('Cache-Control', 'private, no-store');
    const message = rest.find((arg) => typeof arg === 'string');
    return message ? writeHead(status, message) : writeHead(status);
  };
}
