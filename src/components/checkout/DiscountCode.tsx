import { useState } from 'react';
import { useTranslation } from '../islands/I18nIsland.tsx';
import { TextField } from '../forms/fields.tsx';
import { instead } from '../forms/use-form.tsx';
import { postJson } from '../../lib/api-client.ts';
import { formatMoney } from '../../lib/money.ts';
import type { AppliedCode } from '../../lib/checkout.schema.ts';
import type { MessageKey } from '../../i18n/i18n.ts';
import type { Language } from '../../i18n/languages.ts';

interface Props {
  lang: Language;
  courseId: string;
  /** A pay-what-you-want buyer's price: the code applies to it. */
  price?: string | undefined;
  listMinor: number;
  currency: string;
  /** The checkout form's own `discountCode` field: what was typed before the script ran is kept. */
  field: { id: string; name: string; value: string; onChange: (event: { target: { value: string } }) => void };
  applied: AppliedCode | null;
  onChange: (applied: AppliedCode | null) => void;
  /** Why the code the page was posted with does not apply (the form shown again without the script). */
  refused?: MessageKey | undefined;
}

/**
 * "Have a code?" inside the checkout form: asks the server what a code gives, and shows the new total.
 * A disclosure and two submit buttons, so it works before the script does: the page takes the post
 * (`intent`) through the same quote endpoint (src/server/checkout.ts).
 */
export function DiscountCode({ lang, courseId, price, listMinor, currency, field, applied, onChange, refused }: Props) {
  const { t } = useTranslation();
  const [error, setError] = useState<MessageKey | null>(refused ?? null);
  const [busy, setBusy] = useState(false);
  const money = (minor: number) => formatMoney(minor, currency, lang);

  const apply = async () => {
    if (busy || !field.value.trim()) return;
    setBusy(true);
    setError(null);
    const result = await postJson<AppliedCode>('/api/checkout/quote', {
      courseId,
      language: lang,
      currency,
      discountCode: field.value,
      price,
    });
    setBusy(false);
    if (result.ok)
      return onChange({ code: result.data.code, discountMinor: result.data.discountMinor, totalMinor: result.data.totalMinor });
    setError(result.fields.discountCode ?? result.message);
  };
  if (applied) {
    return (
      <div className="space-y-2 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm">
        <input type="hidden" name="discountCode" value={applied.code} />
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
        <button
          type="submit"
          name="intent"
          value="remove-code"
          onClick={instead(() => onChange(null))}
          className="font-medium text-brand-700 underline"
        >
          {t('checkout.removeCode')}
        </button>
      </div>
    );
  }

  return (
    <details open={Boolean(refused) || undefined}>
      <summary className="cursor-pointer text-sm font-medium text-brand-700 underline">{t('checkout.haveCode')}</summary>
      <div className="mt-2 flex items-end gap-2">
        <div className="flex-1">
          <TextField
            {...field}
            label={t('checkout.discountCode')}
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            error={error ? t(error) : undefined}
            // Enter applies the code; it must not send the whole checkout form.
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              void apply();
            }}
          />
        </div>
        <button
          type="submit"
          name="intent"
          value="apply-code"
          onClick={instead(apply)}
          disabled={busy}
          className={`rounded-lg border border-brand-600 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60 ${error ? 'mb-7' : ''}`}
        >
          {busy ? t('checkout.applyingCode') : t('checkout.applyCode')}
        </button>
      </div>
    </details>
  );
}
