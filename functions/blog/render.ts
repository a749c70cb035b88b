import { Marked, type Token } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { DECORATIVE_ALT } from '../../src/lib/admin/blogs.schema.ts';
import { ARTICLE_IMAGE_SIZES, uploadedImage } from '../../src/lib/blog-images.ts';

/**
 * Post content (Markdown, possibly with HTML, written by editors) becomes safe HTML here, on the
 * server, before any page sees it. The allow-list is strict: no script, style, event handler, form,
 * object or embed; links and images only over http(s) (links also mailto); iframes only from the
 * video hosts below, sandboxed.
 */
const IFRAME_HOSTS = ['www.youtube-nocookie.com', 'player.vimeo.com'];

const markdown = new Marked({ gfm: true, breaks: true, async: false });

const POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2',
    'h3',
    'h4',
    'p',
    'br',
    'hr',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    'b',
    'i',
    'u',
    's',
    'del',
    'blockquote',
    'code',
    'pre',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'iframe',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'srcset', 'sizes'],
    iframe: ['src', 'width', 'height', 'title', 'allowfullscreen', 'sandbox', 'loading', 'referrerpolicy'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    code: ['class'],
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ['https', 'http', 'mailto'],
  allowedSchemesByTag: { img: ['https', 'http'], iframe: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedIframeHostnames: IFRAME_HOSTS,
  allowIframeRelativeUrls: false,
  disallowedTagsMode: 'discard',
  // An iframe or image whose source was refused is dropped, not left empty.
  exclusiveFilter: (frame) => (frame.tag === 'iframe' || frame.tag === 'img') && !frame.attribs.src,
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'template',
    'title',
    'xmp',
    'noembed',
    'noframes',
    'svg',
    'math',
  ],
  transformTags: {
    // Markdown headings start at h2: the page title is the only h1.
    h1: 'h2',
    a: (tagName, attribs) => {
      const external = /^https?:\/\//i.test(attribs.href ?? '');
      return {
        tagName,
        attribs: external
          ? { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' }
          : { ...attribs, rel: attribs.rel ?? '' },
      };
    },
    // An image the editor marked as decoration only gets the empty alt screen readers skip. An image
    // uploaded here gets its widths and size (no layout shift); a typed srcset is never kept.
    img: (tagName, { srcset: _srcset, sizes: _sizes, ...attribs }) => {
      const uploaded = uploadedImage(attribs.src ?? '');
      return {
        tagName,
        attribs: {
          ...attribs,
          ...(uploaded?.srcset
            ? {
                srcset: uploaded.srcset,
                sizes: ARTICLE_IMAGE_SIZES,
                width: String(uploaded.width),
                height: String(uploaded.height),
              }
            : {}),
          loading: 'lazy',
          alt: DECORATIVE_ALT.test(attribs.alt ?? '') ? '' : (attribs.alt ?? ''),
        },
      };
    },
    iframe: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...attribs,
        sandbox: 'allow-scripts allow-same-origin allow-presentation',
        loading: 'lazy',
        referrerpolicy: 'strict-origin-when-cross-origin',
      },
    }),
  },
};

export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, POLICY);
}

/** The same Markdown, as tokens: e-mails build their body from them with the e-mail kit (functions/mail/markdown.ts). */
export function markdownTokens(source: string): Token[] {
  return markdown.lexer(source);
}

export function renderPostContent(source: string): string {
  return sanitizePostHtml(markdown.parse(source) as string);
}
