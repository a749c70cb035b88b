import { formatDateTime } from '../../../lib/dates.ts';
import { formatMoney } from '../../../lib/money.ts';
import type { SaleView } from '../../../lib/admin/sales.schema.ts';
import type { Language } from '../../../i18n/languages.ts';
import type { SaleRowProps } from './SalesTable.tsx';

/** Texts of a sale row formatted once, on the server, so the island hydrates to the same text. */
export function toSaleRowProps(sale: SaleView, lang: Language): SaleRowProps {
  return { ...sale, amountLabel: formatMoney(sale.amountMinor, sale.currency, lang), dateLabel: formatDateTime(sale.date, lang) };
}
