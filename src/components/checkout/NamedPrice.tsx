import { useState } from 'react';
import { useTranslation } from '../islands/I18nIsland.tsx';
import { TextField } from '../forms/fields.tsx';
import { instead } from '../forms/use-form.tsx';
import { formatMoney } from '../../lib/money.ts';
import { lowestPaidMinor, namedPriceText, typedAmountMinor, type NamedPriceTerms } from '../../lib/pay-what-you-want.ts';
import { namedPriceProblem } from '../../lib/named-price-problem.ts';
import type { MessageKey } from '../../i18n/i18n.ts';
import type { Language } from '../../i18n/languages.ts';

/** The form's schema, loaded when first used: with pay what you want, the price field's own schema. */
const schemas = () => import('../../lib/checkout.schema.ts');

/** An amount the buyer typed that may be charged, in minor units; undefined otherwise. */
function acceptable(terms: NamedPriceTerms, typed: string): number | undefined {
  const minor = typedAmountMinor(typed);
  return minor !== undefined && !namedPriceProblem(terms, minor) ? minor : undefined;
}

/**
 * The price a pay-what-you-want buyer names (for a fixed price, nothing changes). `minor` is the last
 * acceptable amount the buyer settled on (leaving the field, Enter, "Update price"): the totals, the
 * code's quote and the tax's quote follow it, not every key.
 */
export function useNamedPrice(suggestedMinor: number, minimumMinor: number | null, currency: string, posted?: string) {
  const [terms] = useState<NamedPriceTerms | null>(() => (minimumMinor === null ? null : { minimumMinor, currency }));
  const initial = posted ?? namedPriceText(suggestedMinor);
  const [settled, setSettled] = useState(() => ({
    text: initial.trim(),
    minor: (terms && acceptable(terms, initial)) ?? suggestedMinor,
  }));
  return {
    terms,
    initial,
    minor: settled.minor,
    /** What quotes and the checkout send as `price`: the settled text (none for a fixed price). */
    sent: terms ? settled.text : undefined,
    /** Whether a buyer may name 0 (before the script, the immediate-access box cannot be required). */
    mayBeFree: terms?.minimumMinor === 0,
    schema: (gift = false) => schemas().then((s) => s.checkoutFormSchema(terms, gift)),
    /** Settles on what the buyer typed, if it may be charged; true when the amount changed. */
    settle: (typed: string): boolean => {
      const minor = terms && acceptable(terms, typed);
      if (minor === undefined || minor === null) return false;
      setSettled({ text: typed.trim(), minor });
      return minor !== settled.minor;
    },
    /** Whether what the buyer typed is a free enrolment. */
    isFree: (typed: string) => terms !== null && acceptable(terms, typed) === 0,
  };
}

type NamedPriceState = ReturnType<typeof useNamedPrice>;

interface Props {
  lang: Language;
  named: NamedPriceState & { terms: NamedPriceTerms };
  suggestedMinor: number;
  /** The checkout form's own `price` field. */
  field: {
    id: string;
    name: string;
    value: string;
    error: string | undefined;
    onChange: (event: { target: { value: string } }) => void;
  };
  /** Why the price the page was posted with was refused (the form shown again without the script). */
  refused?: MessageKey | undefined;
  /** Whether prices include tax (null when no tax is asked). */
  inclusive: boolean | null;
  onSettle: () => void;
}

/**
 * "Your price": the suggestion filled in, the minimum said beside it. "Update price" is a submit
 * button, so before the script the page shows the totals for the price named (src/server/checkout.ts).
 */
export function NamedPrice({ lang, named, suggestedMinor, field, refused, inclusive, onSettle }: Props) {
  const { t } = useTranslation();
  const money = (minor: number) => formatMoney(minor, named.terms.currency, lang);
  const lowest = money(lowestPaidMinor(named.terms));
  const hint =
    named.terms.minimumMinor === 0
      ? t('checkout.namedPrice.hintFree', { suggested: money(suggestedMinor), lowest })
      : t('checkout.namedPrice.hint', { suggested: money(suggestedMinor), minimum: lowest });
  const error = field.error ?? (refused ? t(refused) : undefined);
  return (
    <div className="space-y-1">
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <TextField
            {...field}
            label={t('checkout.namedPrice.label', { currency: named.terms.currency })}
            inputMode="decimal"
            autoComplete="off"
            required
            hint={hint}
            error={error}
            onBlur={onSettle}
            // Enter settles the price; it must not send the whole checkout form.
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              onSettle();
            }}
          />
        </div>
        <button
          type="submit"
          name="intent"
          value="update-price"
          onClick={instead(onSettle)}
          className={`rounded-lg border border-brand-600 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50 ${error ? 'mb-7' : 'mb-6'}`}
        >
          {t('checkout.namedPrice.update')}
        </button>
      </div>
      {inclusive !== null && (
        <p className="text-sm text-gray-600">
          {t(inclusive ? 'checkout.namedPrice.taxIncluded' : 'checkout.namedPrice.taxAdded')}
        </p>
      )}
    </div>
  );
}
