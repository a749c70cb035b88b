import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { renderPostContent, sanitizePostHtml } from './render.ts';

const ALLOWED_TAGS = new Set([
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
]);
const IFRAME_HOSTS = new Set(['www.youtube-nocookie.com', 'player.vimeo.com']);

/** Everything in the output that a browser could execute. */
function executable(html: string): string[] {
  const problems: string[] = [];
  new Parser({
    onopentag(name, attributes) {
      if (!ALLOWED_TAGS.has(name)) problems.push(`tag <${name}>`);
      for (const [attribute, value] of Object.entries(attributes)) {
        if (/^on/i.test(attribute) || ['style', 'srcdoc', 'formaction', 'xlink:href', 'srcset'].includes(attribute))
          problems.push(`attribute ${attribute}`);
        if (['href', 'src', 'action', 'background', 'poster'].includes(attribute)) {
          // As a browser reads it: whitespace and control characters dropped, then any scheme before the first / ? #.
          const compact = value.replace(/[\s\p{Cc}]/gu, '').toLowerCase();
          const scheme = compact.match(/^([a-z][a-z0-9+.-]*):/)?.[1];
          if ((scheme && !['http', 'https', 'mailto'].includes(scheme)) || compact.startsWith('//'))
            problems.push(`${attribute}=${value}`);
        }
      }
      if (name === 'iframe' && !IFRAME_HOSTS.has(new URL(attributes.src ?? 'https://invalid.example').hostname))
        problems.push(`iframe ${attributes.src}`);
    },
  }).end(html);
  return problems;
}

const BASE_PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" ONERROR="alert(1)">',
  '<img src=javascript:alert(1)>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<iframe src="https://evil.example/embed"></iframe>',
  '<iframe src="//www.youtube-nocookie.com/embed/x"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="//evil.example">protocol relative</a>',
  '[click](javascript:alert(1))',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![x](javascript:alert(1))',
  '![x](x" onerror="alert(1))',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="x:expression(alert(1))">x</p>',
  '<style>*{background:url(javascript:alert(1))}</style>',
  '<link rel=stylesheet href=javascript:alert(1)>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<input onfocus=alert(1) autofocus>',
  '<details open ontoggle=alert(1)>',
  '<body onload=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<audio src=x onerror=alert(1)>',
  '<marquee onstart=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<template><img src=x onerror=alert(1)></template>',
  '<a href="https://ok.example" onclick="alert(1)">x</a>',
  '<img src="https://ok.example/a.png" onload="alert(1)">',
  '<p onmouseover="alert(1)">hover</p>',
  '"><script>alert(1)</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<<script>script>alert(1)<</script>/script>',
  '<img """><script>alert(1)</script>">',
  '<IMG SRC="jav&#x0A;ascript:alert(1);">',
  '<a href="&#x6A;avascript:alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<isindex type=image src=1 onerror=alert(1)>',
  '<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="></object>',
  '<img src="x` `<script>alert(1)</script>"` `>',
  '<img srcset="javascript:alert(1) 1x">',
  '<video poster="javascript:alert(1)"></video>',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
];

const PAYLOADS = BASE_PAYLOADS.flatMap((payload) => [
  payload,
  `Intro paragraph\n\n${payload}\n\nOutro`,
  `> ${payload}`,
  `**bold** ${payload.toUpperCase()}`,
]);

describe('post sanitizer', () => {
  it(`leaves nothing executable in ${PAYLOADS.length} XSS payloads`, () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(100);
    const failures = PAYLOADS.map((payload) => ({ payload, problems: executable(renderPostContent(payload)) })).filter(
      (result) => result.problems.length,
    );
    expect(failures).toEqual([]);
  });

  it('keeps ordinary formatting, safe links and allowed video embeds', () => {
    const html = renderPostContent(
      '## Plan\n\nLine one\nline two\n\n- **a** item\n\n[courses](/en/courses) and [site](https://example.com)\n\n<iframe src="https://www.youtube-nocookie.com/embed/abc" title="Video"></iframe>',
    );
    expect(html).toContain('<h2>Plan</h2>');
    expect(html).toContain('Line one<br />');
    expect(html).toContain('<strong>a</strong>');
    expect(html).toContain('<a href="/en/courses"');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">site</a>');
    expect(html).toMatch(
      /<iframe src="https:\/\/www\.youtube-nocookie\.com\/embed\/abc"[^>]*sandbox="allow-scripts allow-same-origin allow-presentation"/,
    );
  });

  it('turns a stray h1 into h2, so the page keeps one title', () => {
    expect(sanitizePostHtml('<h1>Title</h1>')).toBe('<h2>Title</h2>');
  });
});

describe('image descriptions', () => {
  it('an editor must describe every image; one marked decorative is published with the empty alt screen readers skip', async () => {
    const { BlogPostSchema, imagesWithoutAlt } = await import('../../src/lib/admin/blogs.schema.ts');
    expect(imagesWithoutAlt('![](https://a.example/x.png) and <img src="/y.png"> and <img src="/z.png" alt="">')).toBe(3);
    expect(imagesWithoutAlt('![A chart of savings](https://a.example/x.png) <img src="/y.png" alt="Budget sheet">')).toBe(0);
    const post = (content: string) =>
      BlogPostSchema.safeParse({
        title: 'Budget basics',
        excerpt: 'How to start.',
        content,
        author: 'Editor',
        cover: '/media/covers/a.png',
        coverAlt: 'A savings chart',
        language: 'en',
      });
    expect(post('Intro ![](https://a.example/x.png)').error?.issues[0]?.message).toBe('admin.blogs.imageAltMissing');
    expect(post('Intro ![decorative](https://a.example/x.png)').success).toBe(true);
    expect(renderPostContent('![Decorative](https://a.example/x.png) ![A chart](https://a.example/y.png)')).toMatch(
      /<img src="https:\/\/a\.example\/x\.png" alt="" loading="lazy" \/>.*<img src="https:\/\/a\.example\/y\.png" alt="A chart" loading="lazy" \/>/,
    );
  });
});
