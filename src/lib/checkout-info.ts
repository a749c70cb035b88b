/** The spec's `checkoutInfo` in local storage: written before leaving for payment, read once on the success page. */
export const CHECKOUT_INFO_KEY = 'checkoutInfo';

export interface CheckoutInfo {
  courseId: string;
  courseTitle: string;
  email: string;
  fullName: string;
  amount: number;
  currency: string;
  language: string;
  isFree: boolean;
}

export function saveCheckoutInfo(info: CheckoutInfo): void {
  localStorage.setItem(CHECKOUT_INFO_KEY, JSON.stringify(info));
}

export function takeCheckoutInfo(): CheckoutInfo | undefined {
  const raw = localStorage.getItem(CHECKOUT_INFO_KEY);
  localStorage.removeItem(CHECKOUT_INFO_KEY);
  try {
    return raw ? (JSON.parse(raw) as CheckoutInfo) : undefined;
  } catch {
    return undefined;
  }
}
