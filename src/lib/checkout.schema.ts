import { z } from './zod.ts';
import { uuidSchema } from './uuid.schema.ts';
import { EmailSchema, LanguageSchema } from './validation.ts';
import { BillingDetailsSchema } from './billing-details.schema.ts';
import { ChargedCurrencySchema, ExpectedTotalSchema, TaxFieldsSchema } from './checkout-tax.schema.ts';
import { namedPriceSchema, TypedPriceSchema } from './pay-what-you-want.schema.ts';
import type { NamedPriceTerms } from './pay-what-you-want.ts';
import { GiftFieldsSchema } from './gift.schema.ts';

/** A discount code as a buyer types it: any case, spaces around ignored (stored upper-case). */
export const DiscountCodeSchema = z
  .string('errors.badRequest')
  .trim()
  .max(32, 'checkout.codeUnknown')
  .transform((code) => code.toUpperCase());

/**
 * The checkout form. Only ids and the buyer's details travel: never a price. The Terms box is
 * required for every order; the immediate-access box for paid ones (the server knows which).
 */
export const CheckoutFormSchema = z.object({
  email: EmailSchema,
  fullName: z.string().trim().min(2, 'validation.fullNameMin').max(200, 'validation.tooLong'),
  acceptTerms: z.literal(true, 'checkout.termsRequired'),
  waiveWithdrawal: z.boolean('errors.badRequest').default(false),
  /** The "send me news" box, never ticked for the buyer (functions/audience/checkout.ts). */
  sendNews: z.boolean('errors.badRequest').default(false),
  discountCode: DiscountCodeSchema.default(''),
});

/** The checkout island's form: with pay what you want, the price field checked by its one schema; a gift's fields. */
export function checkoutFormSchema(terms: NamedPriceTerms | null, gift = false) {
  const form = CheckoutFormSchema.extend({ price: terms ? namedPriceSchema(terms) : z.string().optional() });
  return gift ? form.extend(GiftFieldsSchema.shape) : form;
}

export const CheckoutRequestSchema = CheckoutFormSchema.extend({
  courseId: uuidSchema('errors.badRequest'),
  language: LanguageSchema,
  currency: ChargedCurrencySchema,
  /** Sent only when the course's provider needs them (checkout page's `billingRequired`). */
  billing: BillingDetailsSchema.optional(),
  /** The total the buyer was shown with the tax for their country (checkout-tax.schema.ts). */
  expectedTotalMinor: ExpectedTotalSchema.optional(),
  /** A pay-what-you-want course's price as the buyer named it (left out: the suggested price). */
  price: TypedPriceSchema,
  /** Bought as a gift (decision 52): the gift's fields are then required. */
  gift: z.boolean('errors.badRequest').optional(),
})
  .extend(TaxFieldsSchema.partial().shape)
  .extend(GiftFieldsSchema.partial().shape)
  .superRefine((request, context) => {
    if (!request.gift) return;
    if (!request.giftTo) context.addIssue({ code: 'custom', path: ['giftTo'], message: 'gifts.recipientRequired' });
    if (!request.giftDate) context.addIssue({ code: 'custom', path: ['giftDate'], message: 'gifts.dateInvalid' });
  });

export type CheckoutRequest = z.infer<typeof CheckoutRequestSchema>;

export const QuoteRequestSchema = z.object({
  courseId: uuidSchema('errors.badRequest'),
  language: LanguageSchema,
  currency: ChargedCurrencySchema,
  discountCode: DiscountCodeSchema,
  price: TypedPriceSchema,
});

/** A code the server accepted, with the price it gives (the server prices the order again at checkout). */
export interface AppliedCode {
  code: string;
  discountMinor: number;
  totalMinor: number;
}
