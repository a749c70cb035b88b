import { z } from '../zod.ts';
import { CURRENCIES } from '../course-filters.ts';

/**
 * Which provider takes each currency, as Admin → Settings → Payments saves it: a provider's name
 * (functions/payments/registry.ts), or '' for "the first configured one". Names are checked against
 * the registry on the server.
 */
export const PaymentChoicesSchema = z.object(
  Object.fromEntries(
    CURRENCIES.map((currency) => [
      currency,
      z
        .string('errors.badRequest')
        .regex(/^([a-z][a-z0-9]{1,30})?$/, 'errors.badRequest')
        .default(''),
    ]),
  ) as Record<(typeof CURRENCIES)[number], z.ZodDefault<z.ZodString>>,
);

export type PaymentChoices = z.infer<typeof PaymentChoicesSchema>;
