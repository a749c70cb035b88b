import { useState } from 'react';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { AdminTable, RowAction } from '../AdminTable.tsx';
import { DeleteDialog, Dialog } from '../Dialog.tsx';
import { useConfirm } from '../use-confirm.ts';
import { DiscountEditor, type CourseChoice } from './DiscountEditor.tsx';
import type { AdminDiscountRow } from '../../../lib/admin/discounts.schema.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { formatMoney } from '../../../lib/money.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { showToast } from '../../../stores/toasts.ts';
import type { Language } from '../../../i18n/languages.ts';

interface Props {
  lang: Language;
  messages: IslandMessages;
  discounts: AdminDiscountRow[];
  courses: CourseChoice[];
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ADMIN_SHARED, 'admin.actions', 'admin.discounts.', 'admin.edit');

export default function DiscountAdminIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <DiscountAdmin {...props} />
    </I18nIsland>
  );
}

const API = '/api/admin/discounts';
type Editing = { mode: 'create' } | { mode: 'edit'; discount: AdminDiscountRow };

function DiscountAdmin({ lang, discounts: initial, courses }: Props) {
  const { t } = useTranslation();
  const [discounts, setDiscounts] = useState(initial);
  const [editing, setEditing] = useState<Editing | null>(null);
  const money = (minor: number, currency: string) => formatMoney(minor, currency, lang);

  const reload = async () => {
    const result = await requestJson<{ discounts: AdminDiscountRow[] }>('GET', API);
    if (result.ok) setDiscounts(result.data.discounts);
  };
  const saved = () => {
    setEditing(null);
    showToast('success', t('admin.discounts.saved'));
    void reload();
  };
  const remove = useConfirm<AdminDiscountRow>(async (target) => {
    const result = await requestJson<{ deleted: true }>('DELETE', `${API}/${target.id}`);
    if (result.ok) {
      setDiscounts((current) => current.filter((item) => item.id !== target.id));
      showToast('success', t('admin.discounts.deleted'));
    }
    return result;
  });

  const value = (discount: AdminDiscountRow) =>
    discount.kind === 'percent'
      ? `${discount.percent} %`
      : Object.entries(discount.amounts)
          .map(([currency, minor]) => money(minor, currency))
          .join(' · ');
  const window = (discount: AdminDiscountRow) =>
    discount.startsAt || discount.endsAt
      ? [discount.startsAt, discount.endsAt].map((iso) => (iso ? formatDateTime(iso, lang) : '…')).join(' – ')
      : t('admin.discounts.always');

  return (
    <div>
      <div className="flex justify-end">
        <button
          type="button"
          onClick={() => setEditing({ mode: 'create' })}
          className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          {t('admin.discounts.new')}
        </button>
      </div>
      {discounts.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-gray-300 p-8 text-center text-gray-600">
          {t('admin.discounts.none')}
        </p>
      ) : (
        <div className="mt-6">
          <AdminTable
            caption={t('admin.discounts.title')}
            columns={[
              { label: t('admin.discounts.code') },
              { label: t('admin.discounts.value') },
              { label: t('admin.discounts.scope') },
              { label: t('admin.discounts.window') },
              { label: t('admin.discounts.uses'), end: true },
              { label: t('admin.discounts.saved_total'), end: true },
              { label: t('admin.discounts.status') },
              { label: t('admin.actions'), unseen: true },
            ]}
          >
            {discounts.map((discount) => (
              <tr key={discount.id}>
                <th scope="row" className="px-4 py-3 text-left font-mono font-semibold">
                  {discount.code}
                </th>
                <td className="px-4 py-3">{value(discount)}</td>
                <td className="px-4 py-3">
                  {discount.allCourses
                    ? t('admin.discounts.allCoursesShort')
                    : t('admin.discounts.someCourses', { count: discount.courseIds.length })}
                </td>
                <td className="px-4 py-3">{window(discount)}</td>
                <td className="px-4 py-3 text-right tabular-nums">
                  {discount.redemptions}
                  {discount.maxRedemptions ? ` / ${discount.maxRedemptions}` : ''}
                  {discount.oncePerBuyer && (
                    <span className="block text-xs text-gray-600">{t('admin.discounts.oncePerBuyer')}</span>
                  )}
                </td>
                <td className="px-4 py-3 text-right tabular-nums">
                  {discount.totals.map((total) => money(total.amountMinor, total.currency)).join(' · ') || '—'}
                </td>
                <td className="px-4 py-3">{t(discount.active ? 'admin.discounts.activeShort' : 'admin.discounts.inactive')}</td>
                <td className="space-x-2 whitespace-nowrap px-4 py-3 text-right">
                  <RowAction
                    label={t('admin.edit')}
                    target={discount.code}
                    onClick={() => setEditing({ mode: 'edit', discount })}
                  />
                  <RowAction label={t('admin.delete')} target={discount.code} onClick={() => remove.ask(discount)} danger />
                </td>
              </tr>
            ))}
          </AdminTable>
        </div>
      )}
      <Dialog
        open={editing !== null}
        title={editing?.mode === 'edit' ? t('admin.discounts.edit', { code: editing.discount.code }) : t('admin.discounts.new')}
        onClose={() => setEditing(null)}
      >
        {editing && (
          <DiscountEditor
            key={editing.mode === 'edit' ? editing.discount.id : 'new'}
            discount={editing.mode === 'edit' ? editing.discount : undefined}
            courses={courses}
            onSaved={saved}
            onCancel={() => setEditing(null)}
          />
        )}
      </Dialog>
      <DeleteDialog
        {...remove.dialog}
        message={
          remove.target
            ? `${t('admin.discounts.deleteTitle', { code: remove.target.code })} ${t('admin.discounts.deleteMessage')}`
            : ''
        }
      />
    </div>
  );
}
