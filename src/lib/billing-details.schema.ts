import { z } from './zod.ts';
import { text } from './validation.ts';

/**
 * The buyer's billing details, asked at checkout only when the order goes to a provider that needs
 * them (iyzico: name, surname, city, country, address, and an identity number it marks required).
 * One schema for the browser and the server; the taxes work will ask the country through it too.
 */
const line = (max: number, required: string) => text('errors.badRequest').trim().min(1, required).max(max, 'validation.tooLong');

export const BillingDetailsSchema = z.object({
  name: line(60, 'checkout.billing.nameRequired'),
  surname: line(60, 'checkout.billing.surnameRequired'),
  city: line(60, 'checkout.billing.cityRequired'),
  country: line(60, 'checkout.billing.countryRequired'),
  address: line(300, 'checkout.billing.addressRequired'),
  // A T.C. identity number is 11 digits; left empty, the provider gets the value it documents instead.
  identityNumber: text('errors.badRequest')
    .trim()
    .regex(/^(\d{11})?$/, 'checkout.billing.identityNumberInvalid')
    .default(''),
});

export type BillingDetails = z.infer<typeof BillingDetailsSchema>;
