import { NO_STORE } from '../lib/http.ts';

/**
 * An e-mail shown as HTML in the browser (the dev gallery, Admin → Mail's preview): a mail styles
 * itself inline, as mail clients require, so its page may do that and nothing else. `framed`: the
 * admin's own pages may show it in a frame (the preview at phone and desktop widths).
 */
const MAIL_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'";

export function mailHtmlResponse(
  body: string,
  { text = false, framed = false }: { text?: boolean; framed?: boolean } = {},
): Response {
  return new Response(body, {
    headers: {
      'Content-Type': text ? 'text/plain; charset=utf-8' : 'text/html; charset=utf-8',
      'Content-Security-Policy': `${MAIL_CSP}; frame-ancestors ${framed ? "'self'" : "'none'"}`,
      ...NO_STORE,
    },
  });
}
