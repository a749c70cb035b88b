import { z } from './zod.ts';
import { text } from './validation.ts';

/** A review as a buyer writes it (checked on the server; the course page's form sends it as JSON). */
export const REVIEW_BODY_MAX = 2000;
export const REVIEWS_PER_PAGE = 5;

/** The course page's `?reviews=N`: anything else is the first page. */
export function reviewPageOf(params: URLSearchParams): number {
  const page = Number(params.get('reviews'));
  return Number.isSafeInteger(page) && page >= 1 && page <= MAX_REVIEW_PAGE ? page : 1;
}
const MAX_REVIEW_PAGE = 10_000;

export const ReviewSchema = z.object({
  rating: z.coerce
    .number('reviews.ratingRequired')
    .int('reviews.ratingRequired')
    .min(1, 'reviews.ratingRequired')
    .max(5, 'reviews.ratingRequired'),
  body: text('errors.badRequest').trim().max(REVIEW_BODY_MAX, 'reviews.bodyTooLong').default(''),
});
export type ReviewInput = z.infer<typeof ReviewSchema>;

/** An admin's change to a review: hide or show it (`hidden`), or answer under it (`reply`; empty removes it). */
export const ReviewChangeSchema = z
  .object({
    hidden: z.boolean('errors.badRequest').optional(),
    reply: text('errors.badRequest').trim().max(REVIEW_BODY_MAX, 'reviews.bodyTooLong').optional(),
  })
  .strict()
  .refine((change) => (change.hidden === undefined) !== (change.reply === undefined), 'errors.badRequest');

/** The buyer's own review, as the form shows it (hidden ones included, so they can edit them). */
export interface OwnReview {
  rating: number;
  body: string;
  hidden: boolean;
  updatedAt: string;
}

/** Admin → Reviews: every review, hidden ones and those of refunded purchases included. */
export interface AdminReview {
  id: string;
  courseId: string;
  courseTitle: string;
  rating: number;
  body: string;
  authorName: string;
  authorEmail: string;
  hidden: boolean;
  /** False once the purchase was refunded or disputed: the review no longer counts anywhere. */
  purchaseActive: boolean;
  reply: string | null;
  createdAt: string;
}

export interface AdminReviewPage {
  reviews: AdminReview[];
  total: number;
  page: number;
  pageCount: number;
}
