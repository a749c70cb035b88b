import { recordEArsivNumber } from '../../functions/taxes/report.ts';
import { parseEcbCsv, recordReferenceRates } from '../../functions/taxes/reference-rates.ts';
import { recheckVatNumber } from '../../functions/taxes/vies-recheck.ts';
import { refundVat } from '../../functions/orders/vat-refund.ts';
import { EArsivNumberSchema, ReferenceRateSchema } from '../lib/admin/tax-report.schema.ts';
import type { Result } from '../lib/result.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import { fileField, readForm, textFields } from './multipart.ts';
import { seeOther } from './form-post.ts';

/**
 * Admin → Taxes' plain forms (no JavaScript needed), told apart by their hidden `form` field: an
 * e-Arşiv number (the default), an ECB rate typed in, the ECB's CSV imported, a VAT number checked
 * again, its VAT refunded. Each answers the page again: a 303 with what was done, or the error at its form.
 */
export type TaxForm = 'e-arsiv' | 'rate' | 'ecb-csv' | 'vies' | 'vat-refund';

export interface TaxFormRefusal {
  form: TaxForm;
  /** The order a row's form is about ('' for the page's own forms). */
  orderId: string;
  message: MessageKey;
  typed: Record<string, string>;
}

/** The ECB's full history CSV (every currency since 1999) is about 1.7 MB. */
const MAX_TAX_FORM_BYTES = 4 * 1024 * 1024;
const FIELDS = ['form', 'orderId', 'number', 'currency', 'day', 'perEuro'] as const;

export async function taxAdminPost(request: Request, back: string): Promise<{ response: Response } | TaxFormRefusal> {
  const read = await readForm(request, MAX_TAX_FORM_BYTES);
  if ('response' in read) return read;
  const fields = Object.fromEntries(
    Object.entries(textFields(read.form, FIELDS)).map(([name, value]) => [name, value ?? '']),
  ) as Record<(typeof FIELDS)[number], string>;
  const form: TaxForm = (['rate', 'ecb-csv', 'vies', 'vat-refund'] as const).find((name) => name === fields.form) ?? 'e-arsiv';
  const done = (what: string) => ({ response: seeOther(`${back}&done=${what}`) });
  const refused = (message: string | undefined) => ({
    form,
    orderId: fields.orderId,
    message: (message ?? 'errors.badRequest') as MessageKey,
    typed: fields,
  });
  const failed = (result: Result<unknown>) => refused((!result.ok && result.message) || 'errors.notFound');

  if (form === 'rate') {
    const parsed = ReferenceRateSchema.safeParse(fields);
    if (!parsed.success) return refused(parsed.error.issues[0]?.message);
    await recordReferenceRates([parsed.data], 'entered');
    return done('rate');
  }
  if (form === 'ecb-csv') {
    const bytes = await fileField(read.form, 'ecbCsv');
    const parsed = parseEcbCsv(bytes ? new TextDecoder().decode(bytes) : '');
    if (!parsed.ok) return failed(parsed);
    return done(`imported&count=${await recordReferenceRates(parsed.value, 'ecb_csv')}`);
  }
  if (form === 'vies') {
    const checked = await recheckVatNumber(fields.orderId);
    return checked.ok ? done(`vies-${checked.value.check}`) : failed(checked);
  }
  if (form === 'vat-refund') {
    const refunded = await refundVat(fields.orderId);
    return refunded.ok ? done('vies-refunded') : failed(refunded);
  }
  const parsed = EArsivNumberSchema.safeParse(fields);
  if (!parsed.success) return refused(parsed.error.issues[0]?.message);
  const recorded = await recordEArsivNumber(parsed.data.orderId, parsed.data.number);
  return recorded.ok ? done('recorded') : failed(recorded);
}
