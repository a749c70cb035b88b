import { useState } from 'react';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { ConfirmDialog } from '../Dialog.tsx';
import { AdminTable } from '../AdminTable.tsx';
import { useConfirm } from '../use-confirm.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { logger } from '../../../lib/logger.ts';
import { isRefundable, type SaleStatus, type SaleView } from '../../../lib/admin/sales.schema.ts';
import { showToast } from '../../../stores/toasts.ts';
import type { Language } from '../../../i18n/languages.ts';

/** A sale with its texts formatted on the server, so the page and the hydrated island agree. */
export interface SaleRowProps extends SaleView {
  amountLabel: string;
  dateLabel: string;
}

interface Props {
  lang: Language;
  messages: IslandMessages;
  sales: SaleRowProps[];
  /** Id of the heading that names the table. */
  labelledBy: string;
  emptyText: string;
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ADMIN_SHARED,
  'admin.actions',
  'admin.people.refund.alreadyRequested',
  'admin.people.refund.busy',
  'admin.people.refund.button',
  'admin.people.refund.buttonFor',
  'admin.people.refund.confirm',
  'admin.people.refund.confirmDemo',
  'admin.people.refund.confirmLater',
  'admin.people.refund.confirmNow',
  'admin.people.refund.done',
  'admin.people.refund.failed',
  'admin.people.refund.free',
  'admin.people.refund.noPaymentIntent',
  'admin.people.refund.notCompleted',
  'admin.people.refund.providerFailed',
  'admin.people.refund.providerUnavailable',
  'admin.people.refund.requested',
  'admin.people.refund.title',
  'admin.people.sales.amount',
  'admin.people.sales.buyer',
  'admin.people.sales.course',
  'admin.people.sales.date',
  'admin.people.sales.free',
  'admin.people.sales.status',
  'admin.people.sales.statuses.',
  'receipt.',
  'twoFactor.requiredForAdmins',
  'twoFactor.secondFactorRequired',
);

export default function SalesTableIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <SalesTable {...props} />
    </I18nIsland>
  );
}

const STATUS_STYLE: Record<SaleStatus, string> = {
  completed: 'bg-emerald-50 text-emerald-800',
  refund_requested: 'bg-amber-50 text-amber-800',
  refunded: 'bg-gray-100 text-gray-700',
  disputed: 'bg-red-50 text-red-800',
};

function SalesTable({ sales: initial, labelledBy, emptyText }: Props) {
  const { t } = useTranslation();
  const [sales, setSales] = useState(initial);
  const refund = useConfirm<SaleRowProps>(async (sale) => {
    const result = await requestJson<{ status: 'refunded' | 'refund_requested' }>(
      'POST',
      `/api/admin/purchases/${sale.id}/refund`,
    );
    if (!result.ok) {
      logger.warn('Refund failed', { purchaseId: sale.id, status: result.status, message: result.message });
      showToast('error', t('admin.people.refund.failed'));
      return result;
    }
    const status = result.data.status;
    setSales((current) => current.map((item) => (item.id === sale.id ? { ...item, status } : item)));
    showToast('success', t(status === 'refunded' ? 'admin.people.refund.done' : 'admin.people.refund.requested'));
    return result;
  });
  const target = refund.target;

  if (!sales.length) return <p className="text-gray-600">{emptyText}</p>;
  return (
    <>
      <AdminTable
        labelledBy={labelledBy}
        columns={[
          { label: t('admin.people.sales.course') },
          { label: t('admin.people.sales.buyer') },
          { label: t('admin.people.sales.amount'), end: true },
          { label: t('admin.people.sales.date') },
          { label: t('admin.people.sales.status') },
          { label: t('admin.actions'), unseen: true },
        ]}
      >
        {sales.map((sale) => (
          <tr key={sale.id}>
            <th scope="row" className="px-4 py-3 text-left font-medium">
              {sale.courseTitle}
            </th>
            <td className="px-4 py-3 break-all">{sale.email}</td>
            <td className="px-4 py-3 text-right tabular-nums">
              {sale.amountMinor === 0 ? t('admin.people.sales.free') : sale.amountLabel}
              {sale.discountCode && <span className="block text-xs text-gray-600">{sale.discountCode}</span>}
            </td>
            <td className="px-4 py-3 whitespace-nowrap">{sale.dateLabel}</td>
            <td className="px-4 py-3">
              <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[sale.status]}`}>
                {t(`admin.people.sales.statuses.${sale.status}`)}
              </span>
            </td>
            <td className="space-y-1 px-4 py-3 text-right">
              {sale.receiptNumber && (
                <a href={`/api/admin/purchases/${sale.id}/receipt`} className="block whitespace-nowrap text-brand-700 underline">
                  {t('receipt.download')} <span className="font-mono text-xs">{sale.receiptNumber}</span>
                </a>
              )}
              {sale.creditNoteNumber && (
                <a
                  href={`/api/admin/purchases/${sale.id}/receipt?document=credit-note`}
                  className="block whitespace-nowrap text-brand-700 underline"
                >
                  {t('receipt.downloadCreditNote')} <span className="font-mono text-xs">{sale.creditNoteNumber}</span>
                </a>
              )}
              {isRefundable(sale) && (
                <button
                  type="button"
                  onClick={() => refund.ask(sale)}
                  aria-label={t('admin.people.refund.buttonFor', { course: sale.courseTitle, email: sale.email })}
                  className="whitespace-nowrap rounded-lg border border-gray-300 px-3 py-1 font-medium hover:bg-gray-50"
                >
                  {t('admin.people.refund.button')}
                </button>
              )}
            </td>
          </tr>
        ))}
      </AdminTable>
      <ConfirmDialog
        {...refund.dialog}
        title={t('admin.people.refund.title')}
        message={
          target
            ? t(refundMessage(target), {
                amount: target.amountLabel,
                email: target.email,
                course: target.courseTitle,
                provider: target.providerLabel,
              })
            : ''
        }
        confirmLabel={t('admin.people.refund.confirm')}
        busyLabel={t('admin.people.refund.busy')}
      />
    </>
  );
}

/** What the refund dialog promises: a demo sale moved no money; a provider refunds now or confirms later. */
function refundMessage(sale: Pick<SaleRowProps, 'demo' | 'refundEndsAccess'>) {
  if (sale.demo) return 'admin.people.refund.confirmDemo' as const;
  return sale.refundEndsAccess === 'now'
    ? ('admin.people.refund.confirmNow' as const)
    : ('admin.people.refund.confirmLater' as const);
}
