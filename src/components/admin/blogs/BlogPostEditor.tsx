import { useState } from 'react';
import { useTranslation } from '../../islands/I18nIsland.tsx';
import { SelectField, TextAreaField, TextField } from '../../forms/fields.tsx';
import { Form, FormActions, useForm } from '../../forms/use-form.tsx';
import { BlogPostSchema, effectiveSlug, type AdminPost, type BlogPostData } from '../../../lib/admin/blogs.schema.ts';
import { META_DESCRIPTION_MAX } from '../../../lib/blog.schema.ts';
import { requestJson, type ApiResult } from '../../../lib/api-client.ts';
import { countWords, readingMinutes } from '../../../lib/reading-time.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { showToast } from '../../../stores/toasts.ts';
import { LANGUAGES, localizedPath, type Language } from '../../../i18n/languages.ts';
import { forgetLocalCopy, readLocalCopy, useKeepLocalCopy, useServerAutosave } from './use-autosave.ts';
import { BLOG_FORM_ID, CoverPicker, ImageInserter } from './BlogImages.tsx';
import { PreviewAsPublished, usePreview, type PreviewValues } from './BlogPreview.tsx';

interface Props {
  lang: Language;
  /** Absent: a new post. */
  post?: AdminPost | undefined;
  onSaved: (created: boolean) => void;
  onCancel: () => void;
  /** The post changed under the editor (it took its file's version): open it again. */
  onReplaced: (post: AdminPost) => void;
}

type Values = PreviewValues;

/** An ISO instant as a `datetime-local` value in the browser's time zone. */
function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

const ID = BLOG_FORM_ID;

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
    publishedAt: toLocalInput(post?.publishedAt),
  };
}

/**
 * The blog post form: a live preview rendered by the server's own sanitizer, a full "preview as
 * published", cover and image uploads, word count and reading time; the text is kept in the browser
 * as it is typed and drafts are saved by themselves, so an expired session loses nothing.
 */
export function BlogPostEditor({ lang, post, onSaved, onCancel, onReplaced }: Props) {
  const { t } = useTranslation();
  const [initial] = useState(() => initialValues(lang, post));
  const copyKey = post?.id ?? 'new';
  // Text typed earlier and never saved (a closed tab, an ended session) comes back, said so.
  const [restored] = useState(() => readLocalCopy(copyKey, initial));
  const form = useForm(BlogPostSchema, restored?.values ?? initial, {
    idPrefix: ID,
    onFailure: () => showToast('error', t('admin.blogs.saveFailed')),
  });
  const { values, set } = form;
  const preview = usePreview(values.content);
  const slug = effectiveSlug(values.slug, values.title);
  const metaLength = values.metaDescription.trim().length;
  const words = countWords(values.content);
  const [sessionEnded, setSignedOut] = useState(false);
  useKeepLocalCopy(copyKey, values);
  const [restoredAt, setRestoredAt] = useState<string | null>(restored?.keptAt ?? null);

  /** What the server receives: an untouched publish date keeps its exact instant. */
  const payload = (data: BlogPostData) => ({
    ...data,
    publishedAt: values.publishedAt === initial.publishedAt && post ? post.publishedAt : data.publishedAt,
  });
  const saved = (result: ApiResult<unknown>) => {
    if (result.ok) {
      forgetLocalCopy(copyKey);
      setSignedOut(false);
    } else if (result.status === 401) setSignedOut(true);
    return result;
  };

  // Drafts save themselves; a published post changes for readers only when the editor saves it.
  const draft = post !== undefined && !post.published && !values.published;
  const autosave = useServerAutosave(values, draft && !sessionEnded, async (current) => {
    const parsed = BlogPostSchema.safeParse(current);
    if (!parsed.success || !post) return undefined;
    const result = saved(await requestJson('PUT', `/api/admin/blog-posts/${post.id}`, payload(parsed.data)));
    return result.ok ? 200 : result.status;
  });
  const signedOut = sessionEnded || autosave.state.kind === 'signedOut';

  const submit = form.handleSubmit(async (data) => {
    const result = saved(
      post
        ? await requestJson('PUT', `/api/admin/blog-posts/${post.id}`, payload(data))
        : await requestJson('POST', '/api/admin/blog-posts', payload(data)),
    );
    if (result.ok) onSaved(!post);
    return result;
  });

  const takeFile = async () => {
    if (!post) return;
    const result = await requestJson<{ post: AdminPost }>('POST', `/api/admin/blog-posts/${post.id}/take-file`);
    if (!result.ok) return showToast('error', t(result.message));
    forgetLocalCopy(copyKey);
    showToast('success', t('admin.blogs.tookFile'));
    onReplaced(result.data.post);
  };

  const contentId = form.idOf('content');
  const insertImage = (markdown: string) => {
    const area = document.getElementById(contentId) as HTMLTextAreaElement | null;
    const at = area?.selectionStart ?? values.content.length;
    const before = values.content.slice(0, at);
    const after = values.content.slice(at);
    const block = `${before && !before.endsWith('\n') ? '\n\n' : ''}${markdown}\n\n`;
    set('content', `${before}${block}${after}`);
  };

  const scheduled = values.published && values.publishedAt !== '' && new Date(values.publishedAt) > new Date();

  return (
    <Form onSubmit={submit} className="space-y-5">
      {signedOut && (
        <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          <p className="font-semibold">{t('admin.blogs.signedOut')}</p>
          <p className="mt-1">
            {t('admin.blogs.signedOutHint')}{' '}
            <a href={localizedPath(lang, '/login')} target="_blank" rel="noopener" className="font-semibold underline">
              {t('admin.blogs.signInAgain')}
              <span className="sr-only"> ({t('admin.blogs.newTab')})</span>
            </a>
          </p>
        </div>
      )}
      {restoredAt && (
        <div role="status" className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-brand-50 p-3 text-sm">
          <span>{t('admin.blogs.restored', { time: formatDateTime(restoredAt, lang) })}</span>
          <button
            type="button"
            className="rounded-lg border border-gray-300 bg-white px-3 py-1 font-medium hover:bg-gray-50"
            onClick={() => {
              form.setValues(initial);
              forgetLocalCopy(copyKey);
              setRestoredAt(null);
            }}
          >
            {t('admin.blogs.discardRestored')}
          </button>
        </div>
      )}
      {post?.fileDiffers && (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-gray-300 bg-gray-50 p-3 text-sm">
          <span>{t('admin.blogs.fileDiffers')}</span>
          <button
            type="button"
            onClick={() => void takeFile()}
            className="rounded-lg border border-gray-300 bg-white px-3 py-1 font-medium hover:bg-gray-100"
          >
            {t('admin.blogs.takeFile')}
          </button>
        </div>
      )}
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
        <div className="min-w-0">
          <TextAreaField
            label={t('admin.blogs.fieldContent')}
            required
            rows={16}
            className="mt-1 w-full rounded-lg border border-gray-300 px-3 py-2 font-mono text-sm aria-invalid:border-red-500"
            hint={
              <>
                <span className="block font-semibold text-gray-800" data-testid="blog-word-count">
                  {t('admin.blogs.wordCount', { count: words })} · {t('blog.readingTime', { count: readingMinutes(words) })}
                </span>
                {t('admin.blogs.contentHint')}
              </>
            }
            {...form.bind('content')}
          />
          <ImageInserter onInsert={insertImage} onSignedOut={() => setSignedOut(true)} />
        </div>
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
        <TextField label={t('admin.blogs.fieldTags')} hint={t('admin.blogs.tagsHint')} {...form.bind('tags')} />
      </div>
      <CoverPicker
        cover={values.cover}
        bind={form.bind('cover')}
        onUploaded={(url) => set('cover', url)}
        onSignedOut={() => setSignedOut(true)}
      />
      <div className="grid gap-4 md:grid-cols-2">
        <TextField
          label={t('admin.blogs.fieldCoverAlt')}
          required
          hint={t('admin.blogs.coverAltHint')}
          {...form.bind('coverAlt')}
        />
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

      <fieldset className="grid gap-4 rounded-lg border border-gray-200 p-4 md:grid-cols-2">
        <legend className="px-1 text-sm font-semibold">{t('admin.blogs.publishing')}</legend>
        <div className="flex items-center gap-2 self-end pb-2">
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
        <TextField
          label={t('admin.blogs.fieldPublishedAt')}
          type="datetime-local"
          step={1}
          hint={
            scheduled
              ? t('admin.blogs.willGoLive', { time: formatDateTime(new Date(values.publishedAt), lang) })
              : t('admin.blogs.publishedAtHint')
          }
          {...form.bind('publishedAt')}
        />
      </fieldset>

      <p aria-live="polite" className="min-h-5 text-sm text-gray-600">
        {autosave.state.kind === 'saving' && t('admin.blogs.autosaving')}
        {autosave.state.kind === 'saved' && t('admin.blogs.autosaved', { time: formatDateTime(autosave.state.at, lang) })}
        {autosave.state.kind === 'failed' && t('admin.blogs.autosaveFailed')}
      </p>
      <PreviewAsPublished lang={lang} values={values} />
      <FormActions
        failure={form.failure}
        busy={form.busy}
        label={t(post ? 'admin.blogs.saveChanges' : 'admin.blogs.createPost')}
        busyLabel={t('admin.saving')}
        cancelLabel={t('admin.cancel')}
        onCancel={onCancel}
      />
    </Form>
  );
}
