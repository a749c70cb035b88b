/** Any origin will do: `next` is resolved against it and must stay on it. */
const SAME_SITE = 'https://same-site.invalid';

/**
 * Only same-site paths are followed after login. `next` is resolved as a browser would resolve it,
 * and only a path on the same origin is kept: `//evil.example`, `/\evil.example`, absolute URLs and
 * `/<tab, CR or LF>/evil.example` (the URL parser drops those characters, leaving `//evil.example`)
 * all fall back, as does a path that resolves to `//…`. The path comes back as the parser wrote it
 * (path, query, fragment).
 */
export function safeNextPath(next: string | null, fallback: string): string {
  if (!next?.startsWith('/')) return fallback;
  let url: URL;
  try {
    url = new URL(next, SAME_SITE);
  } catch {
    return fallback;
  }
  // A path that resolves to `//host` (`/a/../..//evil.example`) would be read as another site again.
  if (url.origin !== SAME_SITE || url.pathname.startsWith('//')) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
