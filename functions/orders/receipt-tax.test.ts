import { describe, expect, it } from 'vitest';
import { renderReceiptPdf, type ReceiptOrder } from './receipts.ts';
import { readPdf } from '../../tests/support/pdf-reader.ts';

const turkishSeller = {
  shopName: 'Kurscuk',
  legalName: 'Kurscuk Yazılım Ltd. Şti.',
  address: 'Moda Cad. 1, Kadıköy, İstanbul',
  supportEmail: 'destek@kurscuk.example',
  taxNumber: '1234567890',
  taxRatePercent: 0,
  country: 'TR',
  vatNumber: '',
  taxOffice: 'Kadıköy',
};
const germanSeller = { ...turkishSeller, legalName: 'Kurs GmbH', country: 'DE', vatNumber: 'DE136695976', taxOffice: '' };

const order = (overrides: Partial<ReceiptOrder>): ReceiptOrder => ({
  id: '7d6f1c3e-3b1a-4c55-9d55-0f3c2b1a9e11',
  language: 'en',
  email: 'lena@example.com',
  fullName: 'Lena Vogel',
  courseTitle: 'The 30-Minute Weekly Review',
  amountMinor: 536,
  paidMinor: null,
  discountMinor: 0,
  discountCode: null,
  currency: 'EUR',
  completedAt: new Date('2026-11-20T10:00:00Z'),
  refundedAt: null,
  paymentReference: 'pi_test',
  receiptNumber: 42,
  creditNoteNumber: null,
  seller: turkishSeller,
  tax: { scheme: 'eu_b2c', country: 'DE', ratePercent: 19, netMinor: 450, taxMinor: 86, inclusive: false, business: null },
  eArsivNumber: null,
  vatRefund: null,
  ...overrides,
});
const textOf = async (receipt: ReceiptOrder) =>
  (await readPdf(await renderReceiptPdf(receipt, 'receipt'))).pages.map((page) => page.text).join('\n');

describe('receipts with the order’s tax line', () => {
  it('show the price before tax, the VAT added at the buyer’s rate and the total; a Turkish seller’s are invoices only with an e-Arşiv number', async () => {
    const text = await textOf(order({}));
    expect(text).toMatch(/^Receipt/);
    expect(text).toContain('The 30-Minute Weekly Review');
    expect(text).toMatch(/Amount before tax\s*€4\.50/);
    expect(text).toMatch(/VAT 19 %\s*€0\.86/);
    expect(text).toMatch(/Total paid \(EUR\)\s*€5\.36/);
    expect(text).toContain('Tax office: Kadıköy');
    // In Turkish too, never "Fatura" until the e-Arşiv invoice issued elsewhere is recorded: then it is one, with its number.
    const kdv = { ...order({}).tax!, country: 'TR', ratePercent: 20, netMinor: 447, taxMinor: 89, inclusive: true };
    const turkish = await textOf(order({ language: 'tr', tax: kdv }));
    expect(turkish).toMatch(/^Makbuz/);
    expect(turkish).not.toMatch(/Fatura/i);
    const invoiced = await textOf(order({ language: 'tr', tax: kdv, eArsivNumber: 'ABC2026000000001' }));
    expect(invoiced).toMatch(/^Fatura/);
    expect(invoiced).toMatch(/e-Arşiv fatura numarası:\s*ABC2026000000001/);
    expect(turkish).toMatch(/Fiyata dahil KDV %20\s*€0,89/);
  });

  it('make an EU seller’s receipt an invoice with both VAT numbers and the reverse-charge mention in the buyer’s language', async () => {
    const reverseCharged = {
      seller: germanSeller,
      amountMinor: 450,
      tax: {
        scheme: 'reverse_charge',
        country: 'FR',
        ratePercent: 0,
        netMinor: 450,
        taxMinor: 0,
        inclusive: false,
        business: { name: 'Atelier SAS', vatNumber: 'FR40303265045' },
      },
    };
    const english = await textOf(order(reverseCharged));
    expect(english).toMatch(/^Invoice/);
    expect(english).toContain('VAT number: DE136695976');
    expect(english).toContain('Atelier SAS');
    expect(english).toContain('VAT number: FR40303265045');
    expect(english).toMatch(/The 30-Minute Weekly Review\s*€4\.50/);
    expect(english).toContain('Reverse charge: VAT to be accounted for by the recipient');
    const turkish = await textOf(order({ ...reverseCharged, language: 'tr' }));
    expect(turkish).toMatch(/^Fatura/);
    expect(turkish).toContain('Sorumlu sıfatıyla beyan (reverse charge)');
  });

  it('show the VAT given back once the buyer’s VAT number checked: the credit with its number, what was paid in the end, the reverse charge', async () => {
    const business = { name: 'Brussels BV', vatNumber: 'BE0417497106' };
    const credited = order({
      seller: germanSeller,
      tax: { scheme: 'eu_b2c', country: 'BE', ratePercent: 21, netMinor: 450, taxMinor: 95, inclusive: false, business },
      amountMinor: 545,
      vatRefund: { amountMinor: 95, creditNoteNumber: 7, refundedAt: new Date('2026-11-25T10:00:00Z') },
    });
    const english = await textOf(credited);
    expect(english).toMatch(/^Invoice/);
    expect(english).toMatch(/Total paid \(EUR\)\s*€5\.45/);
    expect(english).toMatch(/VAT refunded [^\n]*2026 \(credit note CN-000007\)\s*-€0\.95/);
    expect(english).toMatch(/Paid after the VAT refund\s*€4\.50/);
    expect(english).toContain('Reverse charge: VAT to be accounted for by the recipient');
    const turkish = await textOf({ ...credited, language: 'tr' });
    expect(turkish).toMatch(/İade edilen KDV, [^\n]*2026 \(iade belgesi CN-000007\)\s*-€0,95/);
    expect(turkish).toMatch(/KDV iadesinden sonra ödenen\s*€4,50/);
  });
});
