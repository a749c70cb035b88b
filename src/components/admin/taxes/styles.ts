/** The table cells' classes the Admin → Taxes sections share. */
export const CELL = {
  th: 'px-4 py-3 font-semibold',
  thRight: 'px-4 py-3 text-right font-semibold',
  td: 'px-4 py-3',
  tdRight: 'px-4 py-3 text-right tabular-nums',
  rowHead: 'px-4 py-3 text-left font-medium',
  button: 'rounded-lg border border-gray-300 px-3 py-1 font-medium hover:bg-gray-50',
  input: 'rounded-lg border border-gray-300 px-2 py-1',
} as const;
