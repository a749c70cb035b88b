import type { ReactNode } from 'react';
import type { Token, Tokens } from 'marked';
import { markdownTokens } from '../blog/render.ts';
import { h, List, Paragraph, Picture, Quote, Rule, Subheading, TextLink } from './kit.ts';

/**
 * A message the seller wrote in Markdown (a broadcast, an automatic mail), parsed as the blog editor
 * parses articles and built only from the e-mail kit's components: whatever the text holds, the mail
 * has no element, attribute or style the kit does not make. Raw HTML is dropped (its text kept);
 * links and images only over http(s) (links also mailto), as the blog's sanitizer allows.
 */
const SAFE_LINK = /^(https?:|mailto:)/i;
const SAFE_IMAGE = /^https?:/i;

export function markdownBody(source: string): ReactNode[] {
  return blocks(markdownTokens(source));
}

function blocks(tokens: Token[]): ReactNode[] {
  return tokens.flatMap((token, index) => {
    const node = block(token);
    return node === null ? [] : [h('div', { key: index }, node)];
  });
}

// marked's Token union includes a generic token whose `type` is any string, so a `case` does not
// narrow it: each case names the token it handles.
function block(token: Token): ReactNode {
  switch (token.type) {
    case 'heading':
      return h(Subheading, null, inline((token as Tokens.Heading).tokens));
    case 'paragraph':
      return h(Paragraph, null, inline((token as Tokens.Paragraph).tokens));
    case 'text':
      return h(Paragraph, null, inline((token as Tokens.Text).tokens ?? [token]));
    case 'list':
      return h(List, {
        ordered: (token as Tokens.List).ordered,
        items: (token as Tokens.List).items.map((item) => inline(item.tokens.flatMap(itemInline))),
      });
    case 'blockquote':
    case 'code':
      return h(Quote, null, (token as Tokens.Blockquote | Tokens.Code).text);
    case 'hr':
      return h(Rule);
    default:
      return null;
  }
}

/** A list item's tokens as inline ones: a tight item holds `text` tokens with inline children. */
function itemInline(token: Token): Token[] {
  if (token.type === 'text' || token.type === 'paragraph') return (token as Tokens.Text).tokens ?? [token];
  return [token];
}

function inline(tokens: Token[] = []): ReactNode[] {
  return tokens.map((token, index) => inlineNode(token, index));
}

function inlineNode(token: Token, key: number): ReactNode {
  switch (token.type) {
    case 'strong':
    case 'em':
    case 'del':
      return h(token.type, { key }, inline((token as Tokens.Strong).tokens));
    case 'codespan':
      return h('code', { key }, decode((token as Tokens.Codespan).text));
    case 'br':
      return h('br', { key });
    case 'link': {
      const link = token as Tokens.Link;
      return SAFE_LINK.test(link.href) ? h(TextLink, { key, url: link.href }, inline(link.tokens)) : inline(link.tokens);
    }
    case 'image': {
      const image = token as Tokens.Image;
      return SAFE_IMAGE.test(image.href) ? h(Picture, { key, url: image.href, alt: image.text }) : null;
    }
    case 'html':
      return null;
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens) : decode(text.text);
    }
    default:
      return 'tokens' in token && Array.isArray(token.tokens) ? inline(token.tokens) : null;
  }
}

/** The entities marked leaves in text (`&amp;` for an ampersand typed by the writer): React escapes again. */
function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_match, name: string) => ENTITIES[name] ?? '');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
