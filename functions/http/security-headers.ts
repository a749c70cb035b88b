import type { ServerResponse } from 'node:http';

/**
 * Headers every response gets, whatever produced it (static file, page cache, Astro, an endpoint, a
 * redirect, an error). Pages carry their own Content-Security-Policy (Astro hashes its scripts); this
 * adds what a <meta> policy cannot (frame-ancestors), and a strict policy for everything else.
 */
export const STRICT_CSP = "default-src 'none'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const ALWAYS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};
const HSTS = 'max-age=63072000; includeSubDomains';

export function withFrameAncestors(policy: string): string {
  return /frame-ancestors/.test(policy) ? policy : `${policy.replace(/;\s*$/, '')}; frame-ancestors 'none'`;
}

/** Installs the headers on a response before any handler writes to it. */
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
    // Whatever does not say it may be shared (static files, cached pages, covers) is private: a CDN
    // or proxy must never keep a signed-in page, a session answer or a download.
    if (!res.hasHeader('cache-control') || res.hasHeader('set-cookie')) res.setHeader('Cache-Control', 'private, no-store');
    const message = rest.find((arg) => typeof arg === 'string');
    return message ? writeHead(status, message) : writeHead(status);
  };
}
