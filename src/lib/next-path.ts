/** Only same-site paths are followed after login: `//evil.example` and absolute URLs are dropped. */
export function safeNextPath(next: string | null, fallback: string): string {
  return next && /^\/(?![/\\])/.test(next) ? next : fallback;
}
