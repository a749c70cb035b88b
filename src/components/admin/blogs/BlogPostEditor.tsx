import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Input, TextArea, focusFirstError } from '../content-fields.tsx';
import { FormFailure } from '../../forms/use-form.tsx';
import { BlogPostSchema, effectiveSlug, type AdminPost, type BlogPostForm } from '../../../lib/admin/blogs.schema.ts';
import { META_DESCRIPTION_MAX } from '../../../lib/blog.schema.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { fieldErrors, type FieldErrors } from '../../../lib/validation.ts';
import { showToast } from '../../../stores/toasts.ts';
import { LANGUAGES, type Language } from '../../../i18n/languages.ts';
import type { MessageKey } from '../../../i18n/i18n.ts';

interface Props {
  lang: Language;
  /** Absent: a new post. */
  post?: AdminPost | undefined;
  onSaved(created: boolean): void;
  onCancel(): void;
}

type Values = Required<{ [K in keyof BlogPostForm]: K extends 'published' ? boolean : K extends 'language' ? Language : string }>;

const FIELD_ORDER = [
  'title',
  'slug',
  'excerpt',
  'content',
  'author',
  'cover',
  'tags',
  'language',
  'translationKey',
  'seoTitle',
  'metaDescription',
  'tldr',
  'ctaText',
  'ctaLink',
] as const;
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
  const [values, setValues] = useState<Values>(() => initialValues(lang, post));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<MessageKey | null>(null);
  const [busy, setBusy] = useState(false);
  const preview = usePreview(values.content);

  const set = <K extends keyof Values>(name: K, value: Values[K]) => setValues((current) => ({ ...current, [name]: value }));
  const text = (name: Exclude<keyof Values, 'published' | 'language'>) => ({
    id: `${ID}-${name}`,
    name,
    value: values[name],
    error: errors[name] ? t(errors[name]) : undefined,
    onChange: (event: { target: { value: string } }) => set(name, event.target.value),
  });

  const slug = effectiveSlug(values.slug, values.title);
  const metaLength = values.metaDescription.trim().length;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = BlogPostSchema.safeParse(values);
    if (!parsed.success) {
      const found = fieldErrors(parsed.error);
      setErrors(found);
      focusFirstError(ID, FIELD_ORDER, found);
      return;
    }
    setErrors({});
    setBusy(true);
    const result = post
      ? await requestJson('PUT', `/api/admin/blog-posts/${post.id}`, parsed.data)
      : await requestJson('POST', '/api/admin/blog-posts', parsed.data);
    setBusy(false);
    if (!result.ok) {
      // The form stays open with everything typed; the reason is shown at its field and above the buttons.
      setErrors(result.fields);
      setFailure(result.message);
      focusFirstError(ID, FIELD_ORDER, result.fields);
      showToast('error', t('admin.blogs.saveFailed'));
      return;
    }
    onSaved(!post);
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <p className="text-sm text-gray-600">{t('admin.blogs.requiredHint')}</p>
      <div className="grid gap-4 md:grid-cols-2">
        <Input label={t('admin.blogs.fieldTitle')} required {...text('title')} />
        <Input
          label={t('admin.blogs.fieldSlug')}
          autoCapitalize="none"
          spellCheck={false}
          {...text('slug')}
          hint={slug ? t('admin.blogs.slugWillBe', { path: `/${values.language}/blog/${slug}` }) : t('admin.blogs.slugFromTitle')}
        />
      </div>
      <TextArea label={t('admin.blogs.fieldExcerpt')} required rows={2} {...text('excerpt')} />

      <div className="grid gap-4 lg:grid-cols-2">
        <TextArea
          label={t('admin.blogs.fieldContent')}
          required
          rows={16}
          className="mt-1 w-full rounded-lg border border-gray-300 px-3 py-2 font-mono text-sm aria-invalid:border-red-500"
          hint={t('admin.blogs.contentHint')}
          {...text('content')}
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
        <Input label={t('admin.blogs.fieldAuthor')} required autoComplete="name" {...text('author')} />
        <Input
          label={t('admin.blogs.fieldCover')}
          required
          type="url"
          inputMode="url"
          placeholder="https://"
          hint={t('admin.blogs.coverHint')}
          {...text('cover')}
        />
        <Input label={t('admin.blogs.fieldTags')} hint={t('admin.blogs.tagsHint')} {...text('tags')} />
        <div>
          <label htmlFor={`${ID}-language`} className="block text-sm font-semibold">
            {t('admin.blogs.fieldLanguage')}
          </label>
          <select
            id={`${ID}-language`}
            value={values.language}
            onChange={(event) => set('language', event.target.value === 'tr' ? 'tr' : 'en')}
            className="mt-1 w-full rounded-lg border border-gray-300 bg-white px-3 py-2"
          >
            {LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {t(`language.${code}`)}
              </option>
            ))}
          </select>
        </div>
        <Input
          label={t('admin.blogs.fieldTranslationKey')}
          hint={t('admin.blogs.translationKeyHint')}
          autoCapitalize="none"
          spellCheck={false}
          {...text('translationKey')}
        />
        <Input label={t('admin.blogs.fieldSeoTitle')} {...text('seoTitle')} />
      </div>

      <TextArea
        label={t('admin.blogs.fieldMetaDescription')}
        rows={2}
        {...text('metaDescription')}
        hint={
          <span className={metaLength > META_DESCRIPTION_MAX ? 'font-semibold text-red-700' : undefined}>
            {t('admin.blogs.metaCounter', { count: metaLength, max: META_DESCRIPTION_MAX })}
          </span>
        }
      />
      <TextArea label={t('admin.blogs.fieldTldr')} rows={2} {...text('tldr')} />
      <div className="grid gap-4 md:grid-cols-2">
        <Input label={t('admin.blogs.fieldCtaText')} {...text('ctaText')} />
        <Input label={t('admin.blogs.fieldCtaLink')} hint={t('admin.blogs.ctaLinkHint')} inputMode="url" {...text('ctaLink')} />
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

      <FormFailure message={failure} />
      <div className="flex justify-end gap-3">
        <button
          type="button"
          onClick={onCancel}
          className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
        >
          {t('admin.cancel')}
        </button>
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {busy ? t('admin.saving') : t(post ? 'admin.blogs.saveChanges' : 'admin.blogs.createPost')}
        </button>
      </div>
    </form>
  );
}

/** Debounced server rendering of the Markdown; a slow answer to older text never replaces a newer one. */
function usePreview(content: string) {
  const [state, setState] = useState<{ html: string; loading: boolean; failed: boolean }>({
    html: '',
    loading: false,
    failed: false,
  });
  const latest = useRef(0);
  useEffect(() => {
    const request = ++latest.current;
    if (!content.trim()) {
      setState({ html: '', loading: false, failed: false });
      return;
    }
    setState((current) => ({ ...current, loading: true }));
    const timer = setTimeout(async () => {
      const result = await requestJson<{ html: string }>('POST', '/api/admin/blog-preview', { content });
      if (request !== latest.current) return;
      setState(
        result.ok ? { html: result.data.html, loading: false, failed: false } : { html: '', loading: false, failed: true },
      );
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [content]);
  return state;
}
