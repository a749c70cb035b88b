import { useState } from 'react';
import { useTranslation } from '../islands/I18nIsland.tsx';
import { TextField } from '../forms/fields.tsx';
import { postJson } from '../../lib/api-client.ts';
import { formatMoney } from '../../lib/money.ts';
import type { MessageKey } from '../../i18n/i18n.ts';
import type { Language } from '../../i18n/languages.ts';

/** A code the server accepted, with the price it gives (the server prices the order again at checkout). */
export interface AppliedCode {
  code: string;
  discountMinor: number;
  totalMinor: number;
}

interface Props {
  lang: Language;
  courseId: string;
  listMinor: number;
  currency: string;
  applied: AppliedCode | null;
  onChange: (applied: AppliedCode | null) => void;
}

/** "Have a code?" inside the checkout form: asks the server what a code gives, and shows the new total. */
export function DiscountCode({ lang, courseId, listMinor, currency, applied, onChange }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<MessageKey | null>(null);
  const [busy, setBusy] = useState(false);
  const money = (minor: number) => formatMoney(minor, currency, lang);

  const apply = async () => {
    if (busy || !code.trim()) return;
    setBusy(true);
    setError(null);
    const result = await postJson<AppliedCode>('/api/checkout/quote', { courseId, language: lang, discountCode: code });
    setBusy(false);
    if (result.ok)
      return onChange({ code: result.data.code, discountMinor: result.data.discountMinor, totalMinor: result.data.totalMinor });
    setError(result.fields.discountCode ?? result.message);
  };

  if (applied) {
    return (
      <div className="space-y-2 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm">
        <p role="status" className="font-semibold text-emerald-900">
          {t('checkout.codeApplied', { code: applied.code, discount: money(applied.discountMinor) })}
        </p>
        <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
          <dt>{t('checkout.listPrice')}</dt>
          <dd className="text-right">{money(listMinor)}</dd>
          <dt>{t('checkout.discount', { code: applied.code })}</dt>
          <dd className="text-right">−{money(applied.discountMinor)}</dd>
          <dt className="font-semibold">{t('checkout.total')}</dt>
          <dd className="text-right font-semibold" data-testid="checkout-total">
            {applied.totalMinor === 0 ? t('course.free') : money(applied.totalMinor)}
          </dd>
        </dl>
        {applied.totalMinor === 0 && <p>{t('checkout.freeWithCode')}</p>}
        <button type="button" onClick={() => onChange(null)} className="font-medium text-brand-700 underline">
          {t('checkout.removeCode')}
        </button>
      </div>
    );
  }

  if (!open) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-expanded="false"
        className="text-sm font-medium text-brand-700 underline"
      >
        {t('checkout.haveCode')}
      </button>
    );
  }

  return (
    <div className="flex items-end gap-2">
      <div className="flex-1">
        <TextField
          id="checkout-discountCode"
          label={t('checkout.discountCode')}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          maxLength={32}
          value={code}
          error={error ? t(error) : undefined}
          onChange={(event) => setCode(event.target.value)}
          // Enter applies the code; it must not send the whole checkout form.
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            void apply();
          }}
        />
      </div>
      <button
        type="button"
        onClick={() => void apply()}
        disabled={busy}
        className={`rounded-lg border border-brand-600 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60 ${error ? 'mb-7' : ''}`}
      >
        {busy ? t('checkout.applyingCode') : t('checkout.applyCode')}
      </button>
    </div>
  );
}
