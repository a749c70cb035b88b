import { createElement as h, type ReactNode } from 'react';
// Each component from its own package: @react-email/components also loads a code highlighter (Prism
// with its languages), Markdown and Tailwind, a third of a second of CPU for every process that mails.
import { Body } from '@react-email/body';
import { Button as EmailButton } from '@react-email/button';
import { Column } from '@react-email/column';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading as EmailHeading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Img } from '@react-email/img';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Row } from '@react-email/row';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { ShopIdentity } from '../shop/identity.ts';

/**
 * The e-mail kit: every mail of the shop is built from these components, in plain `createElement`
 * calls (the command-line entry points run TypeScript without a JSX step). Fluid up to 600 px, no
 * image needed to read it, colours that hold in dark mode, buttons a thumb can hit (44 px).
 */
export { h };

const COLORS = { text: '#1f2937', muted: '#4b5563', brand: '#4338ca', page: '#f3f4f6', card: '#ffffff', rule: '#e5e7eb' };
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

// Clients that honour prefers-color-scheme (Apple Mail, Outlook apps) get a dark card; the others
// invert on their own, and every colour pair keeps its contrast either way.
const DARK_MODE = `
  :root { color-scheme: light dark; supported-color-schemes: light dark; }
  @media (prefers-color-scheme: dark) {
    .mail-page, .mail-page > table > tbody > tr > td { background-color: #111827 !important; }
    .mail-card { background-color: #1f2937 !important; }
    .mail-text { color: #f3f4f6 !important; }
    .mail-muted { color: #d1d5db !important; }
    .mail-rule { border-color: #374151 !important; }
    .mail-link { color: #c7d2fe !important; }
  }
`;

export interface LayoutProps {
  language: string;
  title: string;
  /** The line mail clients show after the subject in the inbox. */
  preheader: string;
  shop: ShopIdentity;
  /** Why the reader got this e-mail (footer). */
  reason: string;
  /** Links under the reason: the unsubscribe link of a non-transactional mail. */
  footerLinks?: { label: string; url: string }[];
  children: ReactNode;
}

export function Layout({ language, title, preheader, shop, reason, footerLinks = [], children }: LayoutProps) {
  return h(
    Html,
    { lang: language, dir: 'ltr' },
    h(
      Head,
      null,
      h('title', null, title),
      h('meta', { name: 'color-scheme', content: 'light dark' }),
      h('meta', { name: 'supported-color-schemes', content: 'light dark' }),
      h('style', null, DARK_MODE),
    ),
    h(Preview, null, preheader),
    h(
      Body,
      { className: 'mail-page', style: { margin: 0, padding: '16px 8px', backgroundColor: COLORS.page, fontFamily: FONT } },
      h(
        Container,
        {
          className: 'mail-card',
          style: {
            width: '100%',
            maxWidth: '600px',
            backgroundColor: COLORS.card,
            borderRadius: '12px',
            padding: '24px 20px',
            boxSizing: 'border-box',
          },
        },
        h(
          Text,
          { className: 'mail-text', style: { margin: '0 0 16px', fontSize: '20px', fontWeight: 700, color: COLORS.brand } },
          shop.name,
        ),
        children,
        h(Hr, { className: 'mail-rule', style: { borderColor: COLORS.rule, margin: '28px 0 16px' } }),
        h(Text, { className: 'mail-muted', style: small }, [shop.name, shop.address].filter(Boolean).join(' · ')),
        h(Text, { className: 'mail-muted', style: small }, reason),
        ...footerLinks.map((link) =>
          h(
            Text,
            { key: link.url, style: small },
            h(Link, { href: link.url, className: 'mail-link', style: { color: COLORS.brand } }, link.label),
          ),
        ),
      ),
    ),
  );
}

const small = { margin: '0 0 6px', fontSize: '13px', lineHeight: '20px', color: COLORS.muted };
const paragraph = {
  margin: '0 0 16px',
  fontSize: '16px',
  lineHeight: '24px',
  color: COLORS.text,
  wordBreak: 'break-word' as const,
};

export function Heading({ children }: { children?: ReactNode }) {
  return h(
    EmailHeading,
    { as: 'h1', className: 'mail-text', style: { margin: '0 0 16px', fontSize: '22px', lineHeight: '30px', color: COLORS.text } },
    children,
  );
}

export function Paragraph({ children, muted = false }: { children?: ReactNode; muted?: boolean }) {
  return h(
    Text,
    {
      className: muted ? 'mail-muted' : 'mail-text',
      style: muted ? { ...paragraph, fontSize: '14px', color: COLORS.muted } : paragraph,
    },
    children,
  );
}

/** A link inside a paragraph, in the brand colour. */
export function TextLink({ url, children }: { url: string; children?: ReactNode }) {
  return h(Link, { href: url, className: 'mail-link', style: { color: COLORS.brand } }, children);
}

/** A call to action: a real link (works with images off), 44 px tall. */
export function Button({ url, children }: { url: string; children?: ReactNode }) {
  return h(
    Section,
    { style: { margin: '24px 0' } },
    h(
      EmailButton,
      {
        href: url,
        style: {
          display: 'inline-block',
          backgroundColor: COLORS.brand,
          color: '#ffffff',
          fontSize: '16px',
          fontWeight: 600,
          lineHeight: '20px',
          padding: '12px 20px',
          minHeight: '44px',
          boxSizing: 'border-box',
          borderRadius: '8px',
          textDecoration: 'none',
        },
      },
      children,
    ),
  );
}

/** A receipt: label and value per line, the last one (the total) in bold. */
export function ReceiptTable({ title, rows }: { title: string; rows: { label: string; value: string }[] }) {
  return h(
    Section,
    {
      style: { margin: '24px 0', border: `1px solid ${COLORS.rule}`, borderRadius: '8px', padding: '12px 16px' },
      className: 'mail-rule',
    },
    h(
      Text,
      { className: 'mail-text', style: { margin: '0 0 8px', fontSize: '16px', fontWeight: 700, color: COLORS.text } },
      title,
    ),
    ...rows.map((row, index) =>
      h(Row, {
        key: row.label,
        children: [
          h(
            Column,
            {
              key: 'label',
              className: 'mail-muted',
              style: { ...small, margin: 0, padding: '4px 12px 4px 0', verticalAlign: 'top', width: '40%' },
            },
            row.label,
          ),
          h(
            Column,
            {
              key: 'value',
              className: 'mail-text',
              style: {
                padding: '4px 0',
                fontSize: '14px',
                lineHeight: '20px',
                color: COLORS.text,
                wordBreak: 'break-word',
                fontWeight: index === rows.length - 1 ? 700 : 400,
              },
            },
            row.value,
          ),
        ],
      }),
    ),
  );
}

/** A quotation of what someone wrote (the contact form), kept as they wrote it. */
export function Quote({ children = '' }: { children?: string }) {
  return h(
    Text,
    {
      className: 'mail-text',
      style: { ...paragraph, whiteSpace: 'pre-wrap', borderLeft: `3px solid ${COLORS.rule}`, paddingLeft: '12px' },
    },
    children,
  );
}

/**
 * A legal document sent for the record (Turkey's pre-information form and distance sales contract):
 * its Markdown as plain headed paragraphs, readable in any mail client.
 */
export function LegalDocument({ title, markdown }: { title: string; markdown: string }) {
  const blocks = markdown
    .split(/\n\s*\n/)
    .map((block) => block.replace(/\*\*|__|\\([\\`*_[\]<>#|~])/g, '$1').trim())
    .filter(Boolean);
  return h(
    Section,
    { style: { margin: '24px 0 0' } },
    h(Text, { className: 'mail-text', style: { ...paragraph, fontWeight: 700, margin: '0 0 8px' } }, title),
    ...blocks.map((block, index) =>
      h(
        Text,
        {
          key: index,
          className: block.startsWith('#') ? 'mail-text' : 'mail-muted',
          style: {
            ...small,
            margin: '0 0 8px',
            whiteSpace: 'pre-wrap',
            fontWeight: block.startsWith('#') ? 700 : 400,
          },
        },
        block.replace(/^#+\s*/, ''),
      ),
    ),
  );
}

/** A heading inside a written message (a broadcast's Markdown `##`): smaller than the mail's title. */
export function Subheading({ children }: { children?: ReactNode }) {
  return h(
    EmailHeading,
    {
      as: 'h2',
      className: 'mail-text',
      style: { margin: '24px 0 12px', fontSize: '18px', lineHeight: '26px', color: COLORS.text },
    },
    children,
  );
}

/** A bulleted or numbered list inside a written message. */
export function List({ ordered = false, items }: { ordered?: boolean; items: ReactNode[] }) {
  return h(
    ordered ? 'ol' : 'ul',
    { className: 'mail-text', style: { ...paragraph, paddingLeft: '24px' } },
    ...items.map((item, index) => h('li', { key: index, style: { margin: '0 0 6px' } }, item)),
  );
}

/** A line between parts of a written message. */
export function Rule() {
  return h(Hr, { className: 'mail-rule', style: { borderColor: COLORS.rule, margin: '24px 0' } });
}

/** An image inside a written message: never wider than the card, with its text for readers who block images. */
export function Picture({ url, alt }: { url: string; alt: string }) {
  return h(Img, { src: url, alt, style: { display: 'block', maxWidth: '100%', height: 'auto', margin: '0 0 16px' } });
}
