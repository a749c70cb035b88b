import { z } from '../zod.ts';
import { isUuid } from '../uuid.ts';

/** The next course after a purchase, as the seller sets it per course (Admin → Courses). Client-safe. */
export const OFFER_PERCENT_MAX = 90;
export const OFFER_HOURS_MAX = 720;

const wholeOrEmpty = (max: number, message: string) =>
  z
    .string(message)
    .trim()
    .regex(/^\d{0,4}$/, message)
    .transform((value) => (value === '' ? null : Number(value)))
    .refine((value) => value === null || (value >= 1 && value <= max), message);

/** The form: empty course for the automatic choice; percent and hours both, or neither (no discount). */
export const CourseOfferFormSchema = z
  .object({
    offeredCourseId: z
      .string('admin.courses.offer.errors.course')
      .refine((value) => value === '' || isUuid(value), 'admin.courses.offer.errors.course'),
    discountPercent: wholeOrEmpty(OFFER_PERCENT_MAX, 'admin.courses.offer.errors.percent'),
    discountHours: wholeOrEmpty(OFFER_HOURS_MAX, 'admin.courses.offer.errors.hours'),
  })
  .transform(({ offeredCourseId, discountPercent, discountHours }, context) => {
    if ((discountPercent === null) !== (discountHours === null))
      context.addIssue({
        code: 'custom',
        path: [discountPercent === null ? 'discountPercent' : 'discountHours'],
        message: 'admin.courses.offer.errors.both',
      });
    return { offeredCourseId: offeredCourseId || null, discountPercent, discountHours };
  });

export type CourseOfferFormValues = z.input<typeof CourseOfferFormSchema>;
export type CourseOfferInput = z.output<typeof CourseOfferFormSchema>;

/** What the editor shows: the seller's choice, what "automatic" currently means, and the courses to choose from. */
export interface CourseOfferView extends CourseOfferInput {
  automatic: { id: string; title: string } | null;
  choices: { id: string; title: string }[];
}

export function courseOfferValues(view: CourseOfferInput): CourseOfferFormValues {
  return {
    offeredCourseId: view.offeredCourseId ?? '',
    discountPercent: view.discountPercent === null ? '' : String(view.discountPercent),
    discountHours: view.discountHours === null ? '' : String(view.discountHours),
  };
}
