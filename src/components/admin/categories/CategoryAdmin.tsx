import { useState } from 'react';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { RowAction } from '../AdminTable.tsx';
import { DeleteDialog, Dialog } from '../Dialog.tsx';
import { ColorSwatch, Switch } from '../../forms/fields.tsx';
import { ListToolbar } from '../ListToolbar.tsx';
import { useConfirm } from '../use-confirm.ts';
import { useRemoteList } from '../use-remote-list.ts';
import { CategoryEditor } from './CategoryEditor.tsx';
import { categoryMatches, type AdminCategoryRow } from '../../../lib/admin/categories.schema.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { showToast } from '../../../stores/toasts.ts';
import { LANGUAGES, type Language } from '../../../i18n/languages.ts';

interface Props {
  lang: Language;
  messages: IslandMessages;
  categories: AdminCategoryRow[];
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ADMIN_SHARED, 'admin.categories.', 'admin.edit', 'admin.saving');

export default function CategoryAdminIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <CategoryAdmin {...props} />
    </I18nIsland>
  );
}

const API = '/api/admin/categories';

type Editing = { mode: 'create' } | { mode: 'edit'; category: AdminCategoryRow };

function CategoryAdmin({ lang, categories: initialCategories }: Props) {
  const { t } = useTranslation();
  // Categories are few: the list holds them all and the search filters here.
  const list = useRemoteList(
    initialCategories,
    async () => {
      const result = await requestJson<{ categories: AdminCategoryRow[] }>('GET', API);
      return result.ok ? { ...result, data: result.data.categories } : result;
    },
    () => showToast('error', t('admin.categories.loadFailed')),
  );
  const categories = list.data;
  const [editing, setEditing] = useState<Editing | null>(null);
  const [toggling, setToggling] = useState<string | null>(null);

  const shown = categories.filter((category) => categoryMatches(category, list.search));
  // A language added since the category was last saved has no name yet: the slug, as the storefront shows.
  const nameOf = (category: AdminCategoryRow) => category.names[lang] || category.slug;

  const toggleActive = async (category: AdminCategoryRow) => {
    setToggling(category.id);
    const result = await requestJson<{ category: AdminCategoryRow }>('PATCH', `${API}/${category.id}`, {
      active: !category.active,
    });
    setToggling(null);
    if (!result.ok) return showToast('error', t('admin.categories.statusFailed'));
    list.setData((current) => current.map((item) => (item.id === category.id ? result.data.category : item)));
    showToast('success', t(result.data.category.active ? 'admin.categories.activated' : 'admin.categories.deactivated'));
  };

  // A category in use cannot be deleted: the dialog closes and a toast says how many courses use it.
  const remove = useConfirm<AdminCategoryRow>(
    async (target) => {
      const result = await requestJson<{ deleted: true }>('DELETE', `${API}/${target.id}`);
      if (result.ok) {
        list.setData((current) => current.filter((item) => item.id !== target.id));
        showToast('success', t('admin.categories.deleted'));
      } else if (result.status === 409) {
        const fresh = await requestJson<{ categories: AdminCategoryRow[] }>('GET', API);
        const count = (fresh.ok ? fresh.data.categories : categories).find((item) => item.id === target.id)?.courseCount;
        showToast(
          'error',
          `${t('admin.errors.dependencies')} ${t('admin.categories.inUse', { count: count ?? target.courseCount })}`,
        );
      } else showToast('error', t('admin.categories.deleteFailed'));
      return result;
    },
    { closesOn: (failure) => failure.status === 409 },
  );

  const saved = (created: boolean) => {
    setEditing(null);
    showToast('success', t(created ? 'admin.categories.created' : 'admin.categories.updated'));
    void list.reload();
  };

  return (
    <div>
      <ListToolbar
        id="category-search"
        searchLabel={t('admin.categories.search')}
        placeholder={t('admin.categories.searchPlaceholder')}
        search={list.search}
        onSearch={list.setSearch}
        onSubmit={list.submitSearch}
        addLabel={t('admin.categories.new')}
        onAdd={() => setEditing({ mode: 'create' })}
      />

      {shown.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-gray-300 p-8 text-center text-gray-600">
          {t(list.search.trim() ? 'admin.categories.noMatches' : 'admin.categories.empty')}
        </p>
      ) : (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label={t('admin.categories.listLabel')}>
          {shown.map((category) => (
            <li
              key={category.id}
              className={`flex flex-col rounded-xl border p-5 ${category.active ? 'border-gray-200' : 'border-dashed border-gray-300 bg-gray-50'}`}
            >
              <div className="flex items-start gap-3">
                <span className="mt-1">
                  <ColorSwatch color={category.color} />
                </span>
                <div className="min-w-0">
                  <h2 className="text-lg font-semibold leading-tight">{nameOf(category)}</h2>
                  {LANGUAGES.filter((other) => other !== lang && category.names[other]).map((other) => (
                    <p key={other} className="text-sm text-gray-600" lang={other}>
                      {category.names[other]}
                    </p>
                  ))}
                </div>
              </div>
              <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="text-gray-600">{t('admin.categories.slug')}</dt>
                <dd>
                  <code>{category.slug}</code>
                </dd>
                <dt className="text-gray-600">{t('admin.categories.icon')}</dt>
                <dd>{category.icon}</dd>
                <dt className="text-gray-600">{t('admin.categories.color')}</dt>
                <dd>{category.color}</dd>
                <dt className="text-gray-600">{t('admin.categories.sortOrder')}</dt>
                <dd>{category.sortOrder}</dd>
                <dt className="text-gray-600">{t('admin.categories.courses')}</dt>
                <dd>{t('admin.categories.courseCount', { count: category.courseCount })}</dd>
              </dl>
              {category.descriptions[lang] && <p className="mt-3 text-sm text-gray-700">{category.descriptions[lang]}</p>}
              <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-4">
                <Switch
                  checked={category.active}
                  busy={toggling === category.id}
                  onChange={() => void toggleActive(category)}
                  label={t('admin.categories.activeSwitch', { name: nameOf(category) })}
                  stateText={t(category.active ? 'admin.categories.statusActive' : 'admin.categories.statusInactive')}
                />
                <div className="flex gap-2">
                  <RowAction
                    label={t('admin.edit')}
                    target={nameOf(category)}
                    onClick={() => setEditing({ mode: 'edit', category })}
                  />
                  <RowAction label={t('admin.delete')} target={nameOf(category)} onClick={() => remove.ask(category)} danger />
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}

      <Dialog
        open={editing !== null}
        title={t(editing?.mode === 'edit' ? 'admin.categories.editTitle' : 'admin.categories.createTitle')}
        onClose={() => setEditing(null)}
      >
        {editing && (
          <CategoryEditor
            key={editing.mode === 'edit' ? editing.category.id : 'new'}
            category={editing.mode === 'edit' ? editing.category : undefined}
            defaultSortOrder={categories.length}
            onSaved={saved}
            onCancel={() => setEditing(null)}
          />
        )}
      </Dialog>

      <DeleteDialog
        {...remove.dialog}
        message={remove.target ? t('admin.categories.confirmDelete', { name: nameOf(remove.target) }) : ''}
      />
    </div>
  );
}
