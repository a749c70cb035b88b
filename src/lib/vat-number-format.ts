/**
 * A VAT number as typed ("de 136 695 976", "DE-136.695.976"): upper case, separators dropped.
 * Its own module so the checkout's browser code normalises without loading every country's rules
 * (vat-number.ts checks them, on the server and in the admin).
 */
export function normalizeVatNumber(value: string): string {
  return value.toUpperCase().replace(/[\s.\-/]/g, '');
}
