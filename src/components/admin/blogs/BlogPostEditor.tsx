import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField, TextAreaField, TextField } from '../../forms/fields.tsx';
import { FormActions, useForm } from '../../forms/use-form.tsx';
import { BlogPostSchema, effectiveSlug, type AdminPost, type BlogPostForm } from '../../../lib/admin/blogs.schema.ts';
import { META_DESCRIPTION_MAX } from '../../../lib/blog.schema.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { showToast } from '../../../stores/toasts.ts';
import { LANGUAGES, type Language } from '../../../i18n/languages.ts';

interface Props {
  lang: Language;
  /** Absent: a new post. */
  post?: AdminPost | undefined;
  onSaved: (created: boolean) => void;
  onCancel: () => void;
}

type Values = Required<{ [K in keyof BlogPostForm]: K extends 'published' ? boolean : string }>;

const PREVIEW_DELAY_MS = 300;
const ID = 'blog';

function initialValues(lang: Language, post: AdminPost | undefined): Values {
  return {
    title: post?.title ?? '',
    slug: post?.slug ?? '',
    excerpt: post?.excerpt ?? '',
    content: post?.content ?? '',
    author: post?.author ?? '',
    cover: post?.cover ?? '',
    coverAlt: post?.coverAlt ?? '',
    tags: post?.tags.join(', ') ?? '',
    language: post?.language ?? lang,
    translationKey: post?.translationKey ?? '',
    seoTitle: post?.seoTitle ?? '',
    metaDescription: post?.metaDescription ?? '',
    tldr: post?.tldr ?? '',
    ctaText: post?.ctaText ?? '',
    ctaLink: post?.ctaLink ?? '',
    // New posts are drafts unless "Publish immediately" is ticked.
    published: post?.published ?? false,
  };
}

/** The blog post form, with a live preview rendered by the server's own sanitizer. */
export function BlogPostEditor({ lang, post, onSaved, onCancel }: Props) {
  const { t } = useTranslation();
  const form = useForm(BlogPostSchema, initialValues(lang, post), {
    idPrefix: ID,
    onFailure: () => showToast('error', t('admin.blogs.saveFailed')),
  });
  const { values, set } = form;
  const preview = usePreview(values.content);
  const slug = effectiveSlug(values.slug, values.title);
  const metaLength = values.metaDescription.trim().length;

  const submit = form.handleSubmit(async (data) => {
    const result = post
      ? await requestJson('PUT', `/api/admin/blog-posts/${post.id}`, data)
      : await requestJson('POST', '/api/admin/blog-posts', data);
    if (result.ok) onSaved(!post);
    return result;
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <p className="text-sm text-gray-600">{t('admin.blogs.requiredHint')}</p>
      <div className="grid gap-4 md:grid-cols-2">
        <TextField label={t('admin.blogs.fieldTitle')} required {...form.bind('title')} />
        <TextField
          label={t('admin.blogs.fieldSlug')}
          autoCapitalize="none"
          spellCheck={false}
          {...form.bind('slug')}
          hint={slug ? t('admin.blogs.slugWillBe', { path: `/${values.language}/blog/${slug}` }) : t('admin.blogs.slugFromTitle')}
        />
      </div>
      <TextAreaField label={t('admin.blogs.fieldExcerpt')} required rows={2} {...form.bind('excerpt')} />

      <div className="grid gap-4 lg:grid-cols-2">
        <TextAreaField
          label={t('admin.blogs.fieldContent')}
          required
          rows={16}
          className="mt-1 w-full rounded-lg border border-gray-300 px-3 py-2 font-mono text-sm aria-invalid:border-red-500"
          hint={t('admin.blogs.contentHint')}
          {...form.bind('content')}
        />
        <section aria-labelledby={`${ID}-preview-title`} className="flex min-w-0 flex-col">
          <h3 id={`${ID}-preview-title`} className="text-sm font-semibold">
            {t('admin.blogs.preview')}
          </h3>
          <div
            className="mt-1 max-h-[26rem] min-h-40 flex-1 overflow-y-auto rounded-lg border border-gray-200 bg-gray-50 px-4 py-2"
            aria-busy={preview.loading}
          >
            {preview.failed ? (
              <p className="text-sm text-red-700">{t('admin.blogs.previewFailed')}</p>
            ) : preview.html ? (
              // Only ever the server's sanitized rendering (POST /api/admin/blog-preview), never the raw text.
              <div className="prose-page" data-testid="blog-preview" dangerouslySetInnerHTML={{ __html: preview.html }} />
            ) : (
              <p className="text-sm text-gray-500">{t('admin.blogs.previewEmpty')}</p>
            )}
          </div>
        </section>
      </div>

      <div className="grid gap-4 md:grid-cols-2">
        <TextField label={t('admin.blogs.fieldAuthor')} required autoComplete="name" {...form.bind('author')} />
        <TextField
          label={t('admin.blogs.fieldCover')}
          required
          type="url"
          inputMode="url"
          placeholder="https://"
          hint={t('admin.blogs.coverHint')}
          {...form.bind('cover')}
        />
        <TextField
          label={t('admin.blogs.fieldCoverAlt')}
          required
          hint={t('admin.blogs.coverAltHint')}
          {...form.bind('coverAlt')}
        />
        <TextField label={t('admin.blogs.fieldTags')} hint={t('admin.blogs.tagsHint')} {...form.bind('tags')} />
        <SelectField label={t('admin.blogs.fieldLanguage')} {...form.bind('language')}>
          {LANGUAGES.map((code) => (
            <option key={code} value={code}>
              {t(`language.${code}`)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('admin.blogs.fieldTranslationKey')}
          hint={t('admin.blogs.translationKeyHint')}
          autoCapitalize="none"
          spellCheck={false}
          {...form.bind('translationKey')}
        />
        <TextField label={t('admin.blogs.fieldSeoTitle')} {...form.bind('seoTitle')} />
      </div>

      <TextAreaField
        label={t('admin.blogs.fieldMetaDescription')}
        rows={2}
        {...form.bind('metaDescription')}
        hint={
          <span className={metaLength > META_DESCRIPTION_MAX ? 'font-semibold text-red-700' : undefined}>
            {t('admin.blogs.metaCounter', { count: metaLength, max: META_DESCRIPTION_MAX })}
          </span>
        }
      />
      <TextAreaField label={t('admin.blogs.fieldTldr')} rows={2} {...form.bind('tldr')} />
      <div className="grid gap-4 md:grid-cols-2">
        <TextField label={t('admin.blogs.fieldCtaText')} {...form.bind('ctaText')} />
        <TextField
          label={t('admin.blogs.fieldCtaLink')}
          hint={t('admin.blogs.ctaLinkHint')}
          inputMode="url"
          {...form.bind('ctaLink')}
        />
      </div>

      <div className="flex items-center gap-2">
        <input
          id={`${ID}-published`}
          type="checkbox"
          checked={values.published}
          onChange={(event) => set('published', event.target.checked)}
          className="h-4 w-4"
        />
        <label htmlFor={`${ID}-published`} className="font-medium">
          {t(post ? 'admin.blogs.fieldPublished' : 'admin.blogs.publishImmediately')}
        </label>
      </div>

      <FormActions
        failure={form.failure}
        busy={form.busy}
        label={t(post ? 'admin.blogs.saveChanges' : 'admin.blogs.createPost')}
        busyLabel={t('admin.saving')}
        cancelLabel={t('admin.cancel')}
        onCancel={onCancel}
      />
    </form>
  );
}

/**
 * Debounced server rendering of the Markdown; a slow answer to older text never replaces a newer one,
 * and the last rendering stays on screen while the next one is on its way.
 */
function usePreview(content: string) {
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
