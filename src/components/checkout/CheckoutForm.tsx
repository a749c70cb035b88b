import { useEffect, useState, useSyncExternalStore, type SubmitEvent } from 'react';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../i18n/translate.ts';
import { CheckboxField, TextField } from '../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { DiscountCode } from './DiscountCode.tsx';
import { TaxFields, useTaxFields } from './TaxFields.tsx';
import { NamedPrice, useNamedPrice } from './NamedPrice.tsx';
import { GiftFields, giftValues, postedGiftErrors } from './GiftFields.tsx';
import type { PostedGift } from '../../lib/gift.schema.ts';
import type { TaxProps } from '../../lib/checkout-tax.schema.ts';
import type { AppliedCode } from '../../lib/checkout.schema.ts';
import type { MessageKey } from '../../i18n/i18n.ts';
import { postJson } from '../../lib/api-client.ts';
import { saveCheckoutInfo } from '../../lib/checkout-info.ts';
import { rememberedBilling, rememberBilling } from '../../lib/billing-memory.ts';
import { formatMoney } from '../../lib/money.ts';
import { formatWait } from '../../lib/dates.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';

/** Turkey's distance-sales documents, filled by the server but for the buyer's own details and the price. */
export interface ContractsHtml {
  preInformation: string;
  distanceContract: string;
}

interface Props {
  lang: Language;
  messages: IslandMessages;
  courseId: string;
  courseTitle: string;
  /** The price; with pay what you want, the suggested one. */
  amountMinor: number;
  /** Pay what you want: the least the buyer may name; null for a fixed price. */
  minimumPriceMinor?: number | null;
  currency: string;
  email: string;
  fullName: string;
  /** A signed-in buyer's course goes to their account: the address is the account's, not editable here. */
  signedIn: boolean;
  contracts: ContractsHtml | null;
  /** The course's payment provider needs the buyer's billing details (iyzico). */
  billingRequired: boolean;
  /** What a form posted without the script held (the page answers it with the same form). */
  billing?: Partial<Record<keyof typeof NO_BILLING, string>>;
  /** The seller has set a tax country: the buyer's country (and business) is asked and the total shown with tax. */
  tax?: TaxProps | null;
  /** Bought as a gift (`?gift`): the recipient, a message and a delivery day are asked, between these days. */
  gift?: { earliest: string; latest: string } | null;
  /** The posted form's code and boxes, and the code as the page applied or refused it. */
  posted?:
    | {
        discountCode: string;
        acceptTerms: boolean;
        waiveWithdrawal: boolean;
        sendNews: boolean;
        applied: AppliedCode | null;
        codeRefused: MessageKey | undefined;
        /** The price a pay-what-you-want buyer named, and why it was refused. */
        price?: string | undefined;
        priceRefused?: MessageKey | undefined;
        gift?: PostedGift | undefined;
      }
    | undefined;
}

const billingSchema = () => import('../../lib/billing-details.schema.ts').then((module) => module.BillingDetailsSchema);
const NO_BILLING = { name: '', surname: '', city: '', country: '', address: '', identityNumber: '' };

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  'audience.consentCheckout',
  'auth.hidePassword',
  'auth.showPassword',
  'checkout.',
  'course.free',
  'course.notForSaleNow',
  'errors.',
  'gifts.',
  'twoFactor.requiredForAdmins',
  'twoFactor.secondFactorRequired',
  'validation.',
);

export default function CheckoutFormIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <CheckoutForm {...props} />
    </I18nIsland>
  );
}

function CheckoutForm({
  lang,
  courseId,
  courseTitle,
  amountMinor,
  minimumPriceMinor = null,
  currency,
  email,
  fullName,
  signedIn,
  contracts,
  billingRequired,
  billing: postedBilling = {},
  tax: taxProps = null,
  gift = null,
  posted,
}: Props) {
  const { t } = useTranslation();
  const named = useNamedPrice(amountMinor, minimumPriceMinor, currency, posted?.price);
  const initial: Record<'email' | 'fullName' | 'discountCode' | 'price' | 'giftTo' | 'giftMessage' | 'giftDate', string> &
    Record<'acceptTerms' | 'waiveWithdrawal' | 'sendNews', boolean> = {
    email,
    fullName,
    acceptTerms: posted?.acceptTerms ?? false,
    waiveWithdrawal: posted?.waiveWithdrawal ?? false,
    sendNews: posted?.sendNews ?? false,
    discountCode: posted?.discountCode ?? '',
    price: named.initial,
    ...giftValues(posted?.gift),
  };
  const form = useForm(() => named.schema(gift !== null), initial, { idPrefix: 'checkout', ...postedGiftErrors(posted?.gift) });
  const [owned, setOwned] = useState<string | null>(null);
  const [applied, setApplied] = useState<AppliedCode | null>(posted?.applied ?? null);
  /** After too many checkouts from here: how long the server asks to wait. */
  const [waitS, setWaitS] = useState<number | undefined>(undefined);
  const billing = useForm(
    billingSchema,
    Object.fromEntries(
      Object.entries(NO_BILLING).map(([name, empty]) => [name, postedBilling[name as keyof typeof NO_BILLING] ?? empty]),
    ) as typeof NO_BILLING,
    { idPrefix: 'billing' },
  );
  // Until the script runs, the browser's own checks guard the required fields; afterwards, the form's.
  const hydrated = useSyncExternalStore(noSubscription, isClient, isServer);
  // A named price is the course's price for this order: codes and tax apply to it.
  const listMinor = named.terms ? named.minor : amountMinor;
  const totalMinor = applied?.totalMinor ?? listMinor;
  const free = totalMinor === 0;
  const askBilling = billingRequired && !free;
  const askTax = taxProps !== null && !free;
  const tax = useTaxFields(lang, courseId, applied?.code ?? '', taxProps, askTax, named.sent, currency);
  // The country is asked once: the billing details a provider needs take it from the tax fields.
  const taxCountry = askTax ? (taxProps.countries.find((entry) => entry.code === tax.form.values.country)?.name ?? '') : null;
  const { set: setBillingField } = billing;
  useEffect(() => {
    if (taxCountry !== null) setBillingField('country', taxCountry);
  }, [taxCountry, setBillingField]);
  // Asked once in a browser session: a second course fills them in again (the identity number excepted).
  const { setValues: setBilling } = billing;
  useEffect(() => {
    const remembered = rememberedBilling();
    if (remembered)
      setBilling(
        (current) =>
          Object.fromEntries(
            Object.entries(current).map(([name, value]) => [name, value || (remembered[name as keyof typeof remembered] ?? '')]),
          ) as typeof current,
      );
  }, [setBilling]);
  const empty = !form.values.email.trim() || !form.values.fullName.trim();

  const send = form.handleSubmit(async (data) => {
    const details = askBilling ? await billing.validate() : undefined;
    if (askBilling && !details) return { ok: false, status: 400, message: 'checkout.billing.required', fields: {} };
    const result = await postJson<{ redirectUrl?: string; alreadyOwned?: boolean; courseUrl?: string }>('/api/checkout', {
      ...data,
      // The buyer's own text: the server checks it with the same schema.
      price: named.terms ? form.values.price.trim() : undefined,
      discountCode: applied?.code ?? '',
      ...(gift ? { gift: true } : { giftTo: undefined, giftMessage: undefined, giftDate: undefined }),
      courseId,
      language: lang,
      currency,
      ...(details ? { billing: details } : {}),
      ...(askTax ? tax.payload() : {}),
    });
    if (result.ok && result.data.redirectUrl) {
      if (details) rememberBilling(details);
      saveCheckoutInfo({
        courseId,
        courseTitle,
        email: data.email,
        fullName: data.fullName,
        amount: totalMinor,
        currency,
        language: lang,
        isFree: free,
      });
      location.assign(result.data.redirectUrl);
      return 'navigating';
    }
    if (result.ok) return { ok: false, status: 502, message: 'checkout.failed', fields: {} };
    if (result.status === 409) return setOwned(localizedPath(lang, `/course/${courseId}`));
    // A code that stopped applying meanwhile (used up, expired): the buyer sees the full price again.
    if (result.fields.discountCode) setApplied(null);
    if (askTax) tax.showFailure(result);
    setWaitS(result.status === 429 ? result.retryAfterS : undefined);
    return { ...result, message: [400, 404, 429].includes(result.status) ? result.message : 'checkout.failed' };
  });
  // The spec's own message when a required field is left empty; then the boxes a paid order needs.
  // A code's discount was for the old price: applied again, it is priced anew.
  const settlePrice = () => named.settle(form.values.price) && setApplied(null);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    setWaitS(undefined);
    if (empty) {
      event.preventDefault();
      return form.setFailure('checkout.required');
    }
    settlePrice();
    const enrolsFree = named.terms && !applied ? named.isFree(form.values.price) : free;
    if (!enrolsFree && !form.values.waiveWithdrawal) {
      event.preventDefault();
      return form.fail(null, {
        ...(form.values.acceptTerms ? {} : { acceptTerms: 'checkout.termsRequired' }),
        waiveWithdrawal: 'checkout.withdrawalRequired',
      });
    }
    return send(event);
  };

  if (owned) {
    return (
      <div role="status" className="space-y-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-emerald-900">
        <p className="font-semibold">{t('checkout.alreadyOwned')}</p>
        <p className="flex flex-wrap gap-4">
          <a href={localizedPath(lang, '/dashboard/courses')} className="font-semibold underline">
            {t('checkout.openMyCourses')}
          </a>
          <a href={owned} className="underline">
            {t('checkout.openCourse')}
          </a>
        </p>
      </div>
    );
  }

  const error = (name: 'acceptTerms' | 'waiveWithdrawal') => (form.errors[name] ? t(form.errors[name]) : undefined);
  const showContracts = contracts && !free;
  const buyer = {
    buyerName: form.values.fullName.trim() || t('checkout.buyerPending'),
    buyerEmail: form.values.email.trim() || t('checkout.buyerPending'),
    buyerAddress: askBilling
      ? [billing.values.address, billing.values.city, billing.values.country]
          .map((part) => part.trim())
          .filter(Boolean)
          .join(', ') || t('checkout.buyerPending')
      : '—',
    price: formatMoney(askTax ? tax.quote.grossMinor : totalMinor, currency, lang),
  };

  return (
    <Form onSubmit={submit} className="space-y-4">
      {/* Enter in a field presses a form's first submit button: paying, not the code's Apply below. */}
      <button type="submit" name="intent" value="pay" hidden tabIndex={-1} />
      <TextField
        label={t('checkout.email')}
        type="email"
        autoComplete="email"
        required
        readOnly={signedIn}
        hint={signedIn ? t('checkout.accountEmail') : t('checkout.guestEmail')}
        {...form.bind('email')}
      />
      <TextField label={t('checkout.fullName')} autoComplete="name" required {...form.bind('fullName')} />
      {gift && <GiftFields bind={form.bind} days={gift} />}
      {named.terms && (
        <NamedPrice
          lang={lang}
          named={{ ...named, terms: named.terms }}
          suggestedMinor={amountMinor}
          field={form.bind('price')}
          refused={posted?.priceRefused}
          inclusive={askTax ? tax.quote.inclusive : null}
          onSettle={settlePrice}
        />
      )}
      {askBilling && (
        <fieldset className="space-y-3 rounded-lg border border-gray-200 p-3">
          <legend className="px-1 font-semibold">{t('checkout.billing.title')}</legend>
          <p className="text-sm text-gray-600">{t('checkout.billing.why')}</p>
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField label={t('checkout.billing.name')} autoComplete="given-name" required {...billing.bind('name')} />
            <TextField label={t('checkout.billing.surname')} autoComplete="family-name" required {...billing.bind('surname')} />
          </div>
          <TextField label={t('checkout.billing.address')} autoComplete="street-address" required {...billing.bind('address')} />
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField label={t('checkout.billing.city')} autoComplete="address-level2" required {...billing.bind('city')} />
            {taxCountry === null && (
              <TextField
                label={t('checkout.billing.country')}
                autoComplete="country-name"
                required
                {...billing.bind('country')}
              />
            )}
          </div>
          <TextField
            label={t('checkout.billing.identityNumber')}
            inputMode="numeric"
            autoComplete="off"
            maxLength={11}
            hint={t('checkout.billing.identityNumberHint')}
            {...billing.bind('identityNumber')}
          />
        </fieldset>
      )}
      {askTax && <TaxFields lang={lang} tax={tax} countries={taxProps.countries} />}
      {listMinor > 0 && (
        <DiscountCode
          lang={lang}
          courseId={courseId}
          price={named.sent}
          listMinor={listMinor}
          currency={currency}
          field={form.bind('discountCode')}
          applied={applied}
          onChange={setApplied}
          refused={posted?.codeRefused}
        />
      )}
      {showContracts && (
        <section aria-labelledby="checkout-contracts" className="space-y-2 rounded-lg border border-gray-200 p-3 text-sm">
          <h3 id="checkout-contracts" className="font-semibold">
            {t('checkout.contractsTitle')}
          </h3>
          <Contract title={t('checkout.preInformation')} html={fill(contracts.preInformation, buyer)} />
          <Contract title={t('checkout.distanceContract')} html={fill(contracts.distanceContract, buyer)} />
        </section>
      )}
      <CheckboxField
        id="checkout-acceptTerms"
        name="acceptTerms"
        required
        checked={form.values.acceptTerms}
        onChange={(checked) => form.set('acceptTerms', checked)}
        error={error('acceptTerms')}
        label={t(showContracts ? 'checkout.acceptTermsContracts' : 'checkout.acceptTerms')}
        hint={
          <a href={localizedPath(lang, '/terms')} target="_blank" rel="noopener" className="text-brand-700 underline">
            {t('checkout.readTerms')}
          </a>
        }
      />
      {!free && (
        <CheckboxField
          id="checkout-waiveWithdrawal"
          name="waiveWithdrawal"
          // Before the script, a buyer naming 0 must not be made to tick it (the server asks it of paid orders).
          required={!named.mayBeFree}
          checked={form.values.waiveWithdrawal}
          onChange={(checked) => form.set('waiveWithdrawal', checked)}
          error={error('waiveWithdrawal')}
          label={t('checkout.waiveWithdrawal')}
        />
      )}
      <CheckboxField
        id="checkout-sendNews"
        name="sendNews"
        checked={form.values.sendNews}
        onChange={(checked) => form.set('sendNews', checked)}
        label={t('audience.consentCheckout')}
      />
      <FormFailure message={form.failure} values={waitS ? { wait: formatWait(waitS, lang) } : undefined} />
      <SubmitButton
        busy={form.busy}
        label={free ? t('checkout.enrolFree') : t('checkout.proceedToPayment')}
        busyLabel={t('checkout.processing')}
        wide
        disabled={hydrated && empty}
      />
    </Form>
  );
}

const noSubscription = () => () => {};
const isClient = () => true;
const isServer = () => false;

function Contract({ title, html }: { title: string; html: string }) {
  return (
    <details className="rounded border border-gray-200 p-2">
      <summary className="cursor-pointer font-medium">{title}</summary>
      {/* Server-rendered and sanitized (functions/shop/legal.ts); only escaped text is filled in here. */}
      <div className="prose-page mt-2 max-h-72 overflow-y-auto text-xs" dangerouslySetInnerHTML={{ __html: html }} />
    </details>
  );
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function fill(html: string, values: Record<string, string>): string {
  return html.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : values[name].replace(/[&<>"']/g, (char) => ESCAPES[char]!),
  );
}
