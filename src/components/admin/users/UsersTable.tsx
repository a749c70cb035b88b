import { useState } from 'react';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { ConfirmDialog } from '../Dialog.tsx';
import { AdminTable, RowAction } from '../AdminTable.tsx';
import { useConfirm } from '../use-confirm.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { logger } from '../../../lib/logger.ts';
import type { Role } from '../../../lib/admin/users.schema.ts';
import { showToast } from '../../../stores/toasts.ts';
import type { Language } from '../../../i18n/languages.ts';

/** A user row with its texts formatted on the server (dates, money per currency). */
export interface UserRowProps {
  id: string;
  fullName: string;
  email: string;
  role: Role;
  joinedLabel: string;
  purchaseCount: number;
  spentLabel: string;
}

interface Props {
  lang: Language;
  messages: IslandMessages;
  currentUserId: string;
  users: UserRowProps[];
  labelledBy: string;
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ADMIN_SHARED,
  'admin.actions',
  'admin.people.users.demote',
  'admin.people.users.demoteMessage',
  'admin.people.users.demoteTitle',
  'admin.people.users.demoted',
  'admin.people.users.email',
  'admin.people.users.joined',
  'admin.people.users.name',
  'admin.people.users.none',
  'admin.people.users.ownRole',
  'admin.people.users.promote',
  'admin.people.users.promoteMessage',
  'admin.people.users.promoteTitle',
  'admin.people.users.promoted',
  'admin.people.users.purchases',
  'admin.people.users.role',
  'admin.people.users.roleAdmin',
  'admin.people.users.roleFailed',
  'admin.people.users.roleInvalid',
  'admin.people.users.roleUser',
  'admin.people.users.spent',
  'admin.people.users.you',
  'admin.saving',
  'twoFactor.requiredForAdmins',
  'twoFactor.secondFactorRequired',
);

export default function UsersTableIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <UsersTable {...props} />
    </I18nIsland>
  );
}

function UsersTable({ currentUserId, users: initial, labelledBy }: Props) {
  const { t } = useTranslation();
  const [users, setUsers] = useState(initial);
  const roleChange = useConfirm<UserRowProps>(async (user) => {
    const role: Role = user.role === 'user' ? 'admin' : 'user';
    const result = await requestJson<{ role: Role }>('PATCH', `/api/admin/users/${user.id}/role`, { role });
    if (!result.ok) {
      logger.warn('Role change failed', { userId: user.id, role, status: result.status, message: result.message });
      showToast('error', t('admin.people.users.roleFailed'));
      return result;
    }
    setUsers((current) => current.map((item) => (item.id === user.id ? { ...item, role: result.data.role } : item)));
    showToast(
      'success',
      t(result.data.role === 'admin' ? 'admin.people.users.promoted' : 'admin.people.users.demoted', { email: user.email }),
    );
    return result;
  });
  const target = roleChange.target;
  const promoting = target?.role === 'user';

  if (!users.length) return <p className="text-gray-600">{t('admin.people.users.none')}</p>;
  return (
    <>
      <AdminTable
        labelledBy={labelledBy}
        columns={[
          { label: t('admin.people.users.name') },
          { label: t('admin.people.users.email') },
          { label: t('admin.people.users.role') },
          { label: t('admin.people.users.joined') },
          { label: t('admin.people.users.purchases'), end: true },
          { label: t('admin.people.users.spent'), end: true },
          { label: t('admin.actions'), unseen: true },
        ]}
      >
        {users.map((user) => {
          const self = user.id === currentUserId;
          return (
            <tr key={user.id}>
              <th scope="row" className="px-4 py-3 text-left font-medium">
                {user.fullName || '—'}
                {self && <span className="ml-1 text-xs font-normal text-gray-500">{t('admin.people.users.you')}</span>}
              </th>
              <td className="px-4 py-3 break-all">{user.email}</td>
              <td className="px-4 py-3">
                <span
                  className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${user.role === 'admin' ? 'bg-brand-50 text-brand-800' : 'bg-gray-100 text-gray-700'}`}
                >
                  {t(user.role === 'admin' ? 'admin.people.users.roleAdmin' : 'admin.people.users.roleUser')}
                </span>
              </td>
              <td className="px-4 py-3 whitespace-nowrap">{user.joinedLabel}</td>
              <td className="px-4 py-3 text-right tabular-nums">{user.purchaseCount}</td>
              <td className="px-4 py-3 text-right tabular-nums">{user.spentLabel}</td>
              <td className="px-4 py-3 text-right whitespace-nowrap">
                {!self && (
                  <RowAction
                    label={t(user.role === 'user' ? 'admin.people.users.promote' : 'admin.people.users.demote')}
                    target={user.email}
                    onClick={() => roleChange.ask(user)}
                  />
                )}
              </td>
            </tr>
          );
        })}
      </AdminTable>
      <ConfirmDialog
        {...roleChange.dialog}
        title={t(promoting ? 'admin.people.users.promoteTitle' : 'admin.people.users.demoteTitle')}
        message={
          target
            ? t(promoting ? 'admin.people.users.promoteMessage' : 'admin.people.users.demoteMessage', { email: target.email })
            : ''
        }
        confirmLabel={t(promoting ? 'admin.people.users.promote' : 'admin.people.users.demote')}
        busyLabel={t('admin.saving')}
      />
    </>
  );
}
