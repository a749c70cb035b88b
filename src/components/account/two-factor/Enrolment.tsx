import { useEffect, useState } from 'react';
import { useTranslation } from '../../islands/I18nIsland.tsx';
import { TextField } from '../../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../../forms/use-form.tsx';
import { verifyTotp } from '../../../lib/auth-client.ts';
import { localizedPath, type Language } from '../../../i18n/languages.ts';
import type { PostedForm } from '../../../lib/posted-form.ts';
import { qrDrawing, type QrDrawing } from '../../../lib/two-factor-step.ts';

/**
 * Two-factor set-up after the password was accepted: the QR code, the first code, the backup codes.
 * Each step is a form or a link that works before the island runs (the page answers its posts).
 */

/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../../lib/auth.schema.ts');

/** Scan the QR code (or type the key), then prove it with the first code. */
export function Enrol({
  lang,
  uri,
  qr,
  onConfirmed,
  posted,
}: {
  lang: Language;
  uri: string;
  /** Drawn by the page when it answered a post; the island draws it otherwise. */
  qr?: QrDrawing | undefined;
  onConfirmed: () => void;
  posted?: PostedForm | undefined;
}) {
  const { t } = useTranslation();
  const form = useForm(() => schemas().then((s) => s.TotpCodeSchema), { code: '' }, { idPrefix: 'two-factor-confirm', posted });
  const key = new URL(uri).searchParams.get('secret') ?? '';
  const submit = form.handleSubmit(async (data) => {
    const result = await verifyTotp(data.code);
    if (!result.ok) return { ...result, fields: { code: result.message } };
    onConfirmed();
    return undefined;
  });
  return (
    <div className="space-y-4">
      <h3 className="font-semibold">{t('twoFactor.scanTitle')}</h3>
      <p className="text-sm text-gray-600">{t('twoFactor.scanIntro')}</p>
      <QrCode text={uri} drawing={qr} label={t('twoFactor.qrLabel')} />
      <div>
        <p className="text-sm font-semibold" id="two-factor-key-label">
          {t('twoFactor.manualKey')}
        </p>
        <p aria-labelledby="two-factor-key-label" className="mt-1 font-mono text-sm break-all" data-testid="two-factor-key">
          {key.replace(/(.{4})/g, '$1 ').trim()}
        </p>
      </div>
      <Form name={form.name} onSubmit={submit} className="space-y-4">
        {/* Posted before the island runs, the page shows this step again on a wrong code. */}
        <input type="hidden" name="uri" value={uri} />
        <TextField
          label={t('twoFactor.code')}
          hint={t('twoFactor.codeHint')}
          autoComplete="one-time-code"
          inputMode="numeric"
          {...form.bind('code')}
        />
        <FormFailure message={form.failure} />
        <SubmitButton busy={form.busy} label={t('twoFactor.confirm')} busyLabel={t('twoFactor.working')} />
      </Form>
      <p className="text-sm">
        <a href={localizedPath(lang, '/dashboard/settings')} className="font-medium text-brand-700 underline">
          {t('twoFactor.cancelSetUp')}
        </a>
      </p>
    </div>
  );
}

/** Ten single-use codes, shown once: to download or print and keep away from the phone. */
export function BackupCodes({
  lang,
  codes,
  fresh,
  requiredForAdmin,
}: {
  lang: Language;
  codes: string[];
  fresh: boolean;
  requiredForAdmin: boolean;
}) {
  const { t } = useTranslation();
  const download = () => {
    const text = `${t('twoFactor.codesFileTitle')}\n\n${codes.join('\n')}\n`;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    link.download = 'backup-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  // An admin sent here by the admin area goes on there; everyone else sees Settings saying it is done.
  const next =
    requiredForAdmin && fresh
      ? localizedPath(lang, '/admin')
      : `${localizedPath(lang, '/dashboard/settings')}?saved=${fresh ? 'two-factor-on' : 'codes'}`;
  return (
    <div className="space-y-4">
      {fresh && (
        <p role="status" className="rounded-lg bg-emerald-50 p-3 text-sm font-medium text-emerald-900">
          {t('twoFactor.enabledNow')}
        </p>
      )}
      <h3 className="font-semibold">{t('twoFactor.codesTitle')}</h3>
      <p className="text-sm text-gray-600">{t('twoFactor.codesIntro')}</p>
      <ol aria-label={t('twoFactor.codesTitle')} className="grid grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} className="rounded bg-gray-100 px-2 py-1">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          onClick={download}
          className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50 noscript:hidden"
        >
          {t('twoFactor.downloadCodes')}
        </button>
        <button
          type="button"
          onClick={() => window.print()}
          className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50 noscript:hidden"
        >
          {t('twoFactor.printCodes')}
        </button>
        <a href={next} className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
          {t('twoFactor.codesSaved')}
        </a>
      </div>
    </div>
  );
}

/** The QR code of the authenticator address; the encoder is loaded only when the page did not draw it. */
function QrCode({ text, drawing, label }: { text: string; drawing: QrDrawing | undefined; label: string }) {
  const [drawn, setDrawn] = useState<QrDrawing | undefined>(drawing);
  useEffect(() => {
    if (drawing) return;
    let shown = true;
    void import('qrcode').then(({ default: encoder }) => {
      if (shown) setDrawn(qrDrawing(encoder.create(text, { errorCorrectionLevel: 'M' }).modules));
    });
    return () => {
      shown = false;
    };
  }, [text, drawing]);
  if (!drawn) return <div aria-busy="true" className="h-[200px] w-[200px] rounded bg-gray-100" />;
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${drawn.size} ${drawn.size}`}
      width="200"
      height="200"
      className="rounded bg-white"
      shapeRendering="crispEdges"
    >
      <rect width={drawn.size} height={drawn.size} fill="#fff" />
      <path d={drawn.path} fill="#000" />
    </svg>
  );
}
