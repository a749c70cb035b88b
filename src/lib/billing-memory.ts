import type { BillingDetails } from './billing-details.schema.ts';

/**
 * The billing details a buyer typed, kept for this browser session only (sessionStorage), so a
 * second checkout does not ask them again. The identity number is never kept here: it belongs to
 * the order alone. Read without zod (the checkout page loads no schema up front); the form's schema
 * checks the values before they are sent.
 */
const KEY = 'billingDetails';
const FIELDS = ['name', 'surname', 'city', 'country', 'address'] as const;

export function rememberBilling(details: BillingDetails): void {
  sessionStorage.setItem(KEY, JSON.stringify(Object.fromEntries(FIELDS.map((field) => [field, details[field]]))));
}

export function rememberedBilling(): Partial<BillingDetails> | undefined {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    if (typeof stored !== 'object' || stored === null) return undefined;
    const record = stored as Record<string, unknown>;
    return Object.fromEntries(FIELDS.flatMap((field) => (typeof record[field] === 'string' ? [[field, record[field]]] : [])));
  } catch {
    return undefined;
  }
}
