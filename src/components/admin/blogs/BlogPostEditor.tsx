import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from '../../islands/I18nIsland.tsx';
import { FileField, SelectField, TextAreaField, TextField } from '../../forms/fields.tsx';
import { Form, FormActions, useForm } from '../../forms/use-form.tsx';
import {
  BlogPostSchema,
  effectiveSlug,
  type AdminPost,
  type BlogPostData,
  type BlogPostForm,
} from '../../../lib/admin/blogs.schema.ts';
import { META_DESCRIPTION_MAX } from '../../../lib/blog.schema.ts';
import { MAX_COVER_BYTES } from '../../../lib/admin/courses.schema.ts';
import { requestJson, type ApiResult } from '../../../lib/api-client.ts';
import { countWords, readingMinutes } from '../../../lib/reading-time.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { showToast } from '../../../stores/toasts.ts';
import { LANGUAGES, localizedPath, type Language } from '../../../i18n/languages.ts';
import type { MessageKey } from '../../../i18n/i18n.ts';
import { forgetLocalCopy, readLocalCopy, useKeepLocalCopy, useServerAutosave } from './use-autosave.ts';

interface Props {
  lang: Language;
  /** Absent: a new post. */
  post?: AdminPost | undefined;
  onSaved: (created: boolean) => void;
  onCancel: () => void;
  /** The post changed under the editor (it took its file's version): open it again. */
  onReplaced: (post: AdminPost) => void;
}

type Values = Required<{ [K in keyof BlogPostForm]: K extends 'published' ? boolean : string }>;

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** An ISO instant as a `datetime-local` value in the browser's time zone. */
function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

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

/** Opens the unsaved post, rendered by the public article's own component, in a new tab. */
function PreviewAsPublished({ lang, values }: { lang: Language; values: Values }) {
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

type UploadOutcome = { ok: true; url: string } | { ok: false; message: MessageKey; signedOut: boolean };

/** Sends one image to the server, which checks its bytes, resizes and stores it. */
async function uploadImage(file: File, kind: 'cover' | 'inline'): Promise<UploadOutcome> {
  if (file.size > MAX_COVER_BYTES) return { ok: false, message: 'admin.blogs.imageErrors.tooLarge', signedOut: false };
  if (!IMAGE_TYPES.includes(file.type)) return { ok: false, message: 'admin.blogs.imageErrors.notImage', signedOut: false };
  const body = new FormData();
  body.set('kind', kind);
  body.set('image', file);
  const result = await requestJson<{ image: { url: string } }>('POST', '/api/admin/blog-images', body);
  if (result.ok) return { ok: true, url: result.data.image.url };
  return { ok: false, message: result.fields.image ?? result.message, signedOut: result.status === 401 };
}

function useUpload(kind: 'cover' | 'inline', onSignedOut: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<MessageKey | null>(null);
  const upload = async (file: File): Promise<string | undefined> => {
    setBusy(true);
    setError(null);
    const outcome = await uploadImage(file, kind);
    setBusy(false);
    if (outcome.ok) return outcome.url;
    setError(outcome.message);
    if (outcome.signedOut) onSignedOut();
    return undefined;
  };
  return { busy, error, upload };
}

/** The cover: uploaded (cut to 1200 × 630, several widths) or, for shipped illustrations, an address. */
function CoverPicker({
  cover,
  bind,
  onUploaded,
  onSignedOut,
}: {
  cover: string;
  bind: ReturnType<ReturnType<typeof useForm>['bind']>;
  onUploaded: (url: string) => void;
  onSignedOut: () => void;
}) {
  const { t } = useTranslation();
  const upload = useUpload('cover', onSignedOut);
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const url = await upload.upload(file);
    if (url) onUploaded(url);
  };
  const shown = /^(https?:\/\/|\/(?!\/))\S+$/.test(cover.trim()) ? cover.trim() : null;
  return (
    <div className="grid gap-4 md:grid-cols-[1fr_12rem]">
      <div className="space-y-3">
        <FileField
          id={`${ID}-cover-file`}
          label={t('admin.blogs.uploadCover')}
          accept={IMAGE_TYPES.join(',')}
          hint={upload.busy ? t('admin.blogs.uploading') : t('admin.blogs.uploadCoverHint')}
          error={upload.error ? t(upload.error) : undefined}
          disabled={upload.busy}
          onChange={(event) => void choose(event)}
        />
        <TextField
          label={t('admin.blogs.fieldCover')}
          required
          inputMode="url"
          placeholder="https://"
          hint={t('admin.blogs.coverHint')}
          {...bind}
        />
      </div>
      {shown && (
        <img
          src={shown}
          alt={t('admin.blogs.coverPreview')}
          width={192}
          height={101}
          className="aspect-[1200/630] w-48 rounded-lg border border-gray-200 object-cover"
        />
      )}
    </div>
  );
}

/** An image inside the article: its description first (the alt text), then the file; inserted at the cursor. */
function ImageInserter({ onInsert, onSignedOut }: { onInsert: (markdown: string) => void; onSignedOut: () => void }) {
  const { t } = useTranslation();
  const [alt, setAlt] = useState('');
  const [altError, setAltError] = useState(false);
  const upload = useUpload('inline', onSignedOut);
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const description = alt.trim().replace(/[[\]\n]/g, ' ');
    if (!description) {
      setAltError(true);
      return;
    }
    const url = await upload.upload(file);
    if (!url) return;
    onInsert(`![${description}](${url})`);
    setAlt('');
    setAltError(false);
  };
  return (
    <fieldset className="mt-3 grid gap-3 rounded-lg border border-gray-200 p-3">
      <legend className="px-1 text-sm font-semibold">{t('admin.blogs.insertImage')}</legend>
      <TextField
        id={`${ID}-image-alt`}
        label={t('admin.blogs.imageAlt')}
        hint={t('admin.blogs.imageAltHint')}
        value={alt}
        error={altError ? t('admin.blogs.imageAltFirst') : undefined}
        onChange={(event) => {
          setAlt(event.target.value);
          setAltError(false);
        }}
      />
      <FileField
        id={`${ID}-image-file`}
        label={t('admin.blogs.imageFile')}
        accept={IMAGE_TYPES.join(',')}
        hint={upload.busy ? t('admin.blogs.uploading') : undefined}
        error={upload.error ? t(upload.error) : undefined}
        disabled={upload.busy}
        onChange={(event) => void choose(event)}
      />
    </fieldset>
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
