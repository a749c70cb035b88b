import { z } from './zod.ts';
import { EmailSchema, LanguageSchema } from './validation.ts';

/** The checkout form. Only ids and the buyer's details travel: never a price. */
export const CheckoutFormSchema = z.object({
  email: EmailSchema,
  fullName: z.string().trim().min(2, 'validation.fullNameMin').max(200, 'validation.tooLong'),
});

export const CheckoutRequestSchema = CheckoutFormSchema.extend({
  courseId: z.uuid('errors.badRequest'),
  language: LanguageSchema,
});

export type CheckoutRequest = z.infer<typeof CheckoutRequestSchema>;
