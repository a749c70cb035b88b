import type { AstroGlobal } from 'astro';
import type { Language } from '../i18n/languages.ts';
import type { Currency } from '../lib/course-filters.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import { DiscountCodeSchema, type AppliedCode } from '../lib/checkout.schema.ts';
import { quotePosted } from './checkout.ts';

/** The checkout form's starting state when its link carried a code: applied, or refused at its field. */
export interface LinkedCode {
  discountCode: string;
  acceptTerms: false;
  waiveWithdrawal: false;
  sendNews: false;
  applied: AppliedCode | null;
  codeRefused: MessageKey | undefined;
}

/**
 * A checkout link with `?code=` (the next-course offer's): the code is applied as the form's Apply
 * applies it (the same quote endpoint, in-process), so the page shows the discounted total from its
 * first paint, without a script; the checkout prices the order again on its own.
 */
export async function codeFromLink(
  page: AstroGlobal,
  target: { courseId: string; language: Language; currency?: Currency | undefined },
): Promise<LinkedCode | undefined> {
  const parsed = DiscountCodeSchema.safeParse(page.url.searchParams.get('code') ?? '');
  if (!parsed.success || parsed.data === '') return undefined;
  const quote = await quotePosted(page, target, parsed.data, undefined);
  const start = { discountCode: parsed.data, acceptTerms: false, waiveWithdrawal: false, sendNews: false } as const;
  if ('applied' in quote) return { ...start, applied: quote.applied, codeRefused: undefined };
  return { ...start, applied: null, codeRefused: quote.failure.fields.discountCode ?? quote.failure.message };
}
