import { useEffect, useState } from 'react';
import type QRCode from 'qrcode';
import { useTranslation } from '../../islands/I18nIsland.tsx';
import { TextField } from '../../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../../forms/use-form.tsx';
import { verifyTotp } from '../../../lib/auth-client.ts';
import { localizedPath, type Language } from '../../../i18n/languages.ts';
import { showToastOnNextPage } from '../../../stores/toasts.ts';

/**
 * Two-factor set-up after the password was accepted: the QR code, the first code, the backup codes.
 * Loaded by TwoFactorSettings when set-up starts (or new codes are made): most visits to Settings
 * never show it.
 */

/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../../lib/auth.schema.ts');

/** Scan the QR code (or type the key), then prove it with the first code. */
export function Enrol({ lang, uri, onConfirmed }: { lang: Language; uri: string; onConfirmed: () => void }) {
  const { t } = useTranslation();
  const form = useForm(() => schemas().then((s) => s.TotpCodeSchema), { code: '' }, { idPrefix: 'two-factor-confirm' });
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
      <QrCode text={uri} label={t('twoFactor.qrLabel')} />
      <div>
        <p className="text-sm font-semibold" id="two-factor-key-label">
          {t('twoFactor.manualKey')}
        </p>
        <p aria-labelledby="two-factor-key-label" className="mt-1 font-mono text-sm break-all" data-testid="two-factor-key">
          {key.replace(/(.{4})/g, '$1 ').trim()}
        </p>
      </div>
      <Form onSubmit={submit} className="space-y-4">
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
  const done = () => {
    showToastOnNextPage('success', fresh ? t('twoFactor.enabled') : t('twoFactor.codesRenewed'));
    // An admin sent here by the admin area goes on there; everyone else sees Settings with it on.
    if (requiredForAdmin && fresh) location.assign(localizedPath(lang, '/admin'));
    else location.reload();
  };
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
          className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
        >
          {t('twoFactor.downloadCodes')}
        </button>
        <button
          type="button"
          onClick={() => window.print()}
          className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
        >
          {t('twoFactor.printCodes')}
        </button>
        <button
          type="button"
          onClick={done}
          className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          {t('twoFactor.codesSaved')}
        </button>
      </div>
    </div>
  );
}

type QrModules = ReturnType<typeof QRCode.create>['modules'];

/**
 * The QR code of the authenticator address, drawn as one SVG path (no inline script or style). The
 * encoder is loaded when a code is shown: the settings page does not download it up front.
 */
function QrCode({ text, label }: { text: string; label: string }) {
  const [modules, setModules] = useState<QrModules | null>(null);
  useEffect(() => {
    let shown = true;
    void import('qrcode').then(({ default: encoder }) => {
      if (shown) setModules(encoder.create(text, { errorCorrectionLevel: 'M' }).modules);
    });
    return () => {
      shown = false;
    };
  }, [text]);
  if (!modules) return <div aria-busy="true" className="h-[200px] w-[200px] rounded bg-gray-100" />;
  const quiet = 4;
  const size = modules.size + quiet * 2;
  let path = '';
  for (let row = 0; row < modules.size; row++)
    for (let column = 0; column < modules.size; column++)
      if (modules.get(row, column)) path += `M${column + quiet},${row + quiet}h1v1h-1z`;
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width="200"
      height="200"
      className="rounded bg-white"
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
