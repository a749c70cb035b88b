import { useState, type ChangeEvent } from 'react';
import { useTranslation } from '../../islands/I18nIsland.tsx';
import { FileField, TextField } from '../../forms/fields.tsx';
import type { useForm } from '../../forms/use-form.tsx';
import { MAX_COVER_BYTES } from '../../../lib/admin/courses.schema.ts';
import { requestJson } from '../../../lib/api-client.ts';
import type { MessageKey } from '../../../i18n/i18n.ts';

/** The blog form's id prefix: its fields and these pickers' inputs share it. */
export const BLOG_FORM_ID = 'blog';
const ID = BLOG_FORM_ID;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

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
export function CoverPicker({
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
export function ImageInserter({ onInsert, onSignedOut }: { onInsert: (markdown: string) => void; onSignedOut: () => void }) {
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
