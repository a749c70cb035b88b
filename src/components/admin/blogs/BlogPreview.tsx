import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../islands/I18nIsland.tsx';
import type { BlogPostForm } from '../../../lib/admin/blogs.schema.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { localizedPath, type Language } from '../../../i18n/languages.ts';

/** The editor's values as its fields hold them. */
export type PreviewValues = Required<{ [K in keyof BlogPostForm]: K extends 'published' ? boolean : string }>;

const PREVIEW_DELAY_MS = 300;

/** Opens the unsaved post, rendered by the public article's own component, in a new tab. */
export function PreviewAsPublished({ lang, values }: { lang: Language; values: PreviewValues }) {
  const { t } = useTranslation();
  const open = () => {
    // A form of its own (forms cannot nest): the values go as one JSON field; the page checks them.
    const form = document.createElement('form');
    form.method = 'post';
    form.action = localizedPath(lang, '/admin/blog-preview');
    form.target = '_blank';
    const field = document.createElement('input');
    field.type = 'hidden';
    field.name = 'post';
    // The publish date as an instant, the way a save sends it.
    field.value = JSON.stringify({
      ...values,
      publishedAt: values.publishedAt ? new Date(values.publishedAt).toISOString() : '',
    });
    form.append(field);
    document.body.append(form);
    form.submit();
    form.remove();
  };
  return (
    <div className="flex justify-end">
      <button type="button" onClick={open} className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50">
        {t('admin.blogs.previewAsPublished')}
        <span className="sr-only"> ({t('admin.blogs.newTab')})</span>
      </button>
    </div>
  );
}

/**
 * Debounced server rendering of the Markdown; a slow answer to older text never replaces a newer one,
 * and the last rendering stays on screen while the next one is on its way.
 */
export function usePreview(content: string) {
  const [rendered, setRendered] = useState<{ content: string; html: string; failed: boolean } | null>(null);
  const latest = useRef(0);
  const empty = !content.trim();
  useEffect(() => {
    const request = ++latest.current;
    if (empty) return;
    const timer = setTimeout(() => {
      void requestJson<{ html: string }>('POST', '/api/admin/blog-preview', { content }).then((result) => {
        if (request !== latest.current) return;
        setRendered(result.ok ? { content, html: result.data.html, failed: false } : { content, html: '', failed: true });
      });
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [content, empty]);
  if (empty) return { html: '', loading: false, failed: false };
  const current = rendered?.content === content;
  return { html: rendered?.html ?? '', loading: !current, failed: current && rendered.failed };
}
