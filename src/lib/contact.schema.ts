import { z } from './zod.ts';
import { EmailSchema } from './validation.ts';

/** The contact form, checked the same way in the browser and on the server. */
export const ContactMessageSchema = z.object({
  name: z.string().trim().min(2, 'validation.nameMin').max(200, 'validation.tooLong'),
  email: EmailSchema,
  subject: z.string().trim().min(5, 'validation.subjectMin').max(300, 'validation.tooLong'),
  message: z.string().trim().min(10, 'validation.messageMin').max(10_000, 'validation.tooLong'),
});

export type ContactMessage = z.infer<typeof ContactMessageSchema>;
