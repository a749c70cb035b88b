import { useState } from 'react';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { DeleteDialog, Dialog } from '../Dialog.tsx';
import { AdminTable, RowAction } from '../AdminTable.tsx';
import { Switch } from '../../forms/fields.tsx';
import { ListToolbar } from '../ListToolbar.tsx';
import { useConfirm } from '../use-confirm.ts';
import { useRemoteList } from '../use-remote-list.ts';
import { BlogPostEditor } from './BlogPostEditor.tsx';
import type { AdminPost, AdminPostRow } from '../../../lib/admin/blogs.schema.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { formatDate, formatDateTime } from '../../../lib/dates.ts';
import { showToast } from '../../../stores/toasts.ts';
import type { Language } from '../../../i18n/languages.ts';

interface Props {
  lang: Language;
  messages: IslandMessages;
  posts: AdminPostRow[];
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ADMIN_SHARED,
  'admin.actions',
  'admin.blogs.',
  'admin.courses.errors.bundleCoursesInvalid',
  'admin.courses.errors.bundleCoursesTooFew',
  'admin.courses.errors.bundleDescriptionRequired.',
  'admin.courses.errors.bundleFixedPrice',
  'admin.courses.errors.bundleTitleRequired.',
  'admin.courses.errors.categoryInvalid',
  'admin.courses.errors.categoryRequired',
  'admin.courses.errors.coverUrlInvalid',
  'admin.courses.errors.currencyInvalid',
  'admin.courses.errors.descriptionRequired',
  'admin.courses.errors.difficultyInvalid',
  'admin.courses.errors.durationInvalid',
  'admin.courses.errors.instructorBioRequired',
  'admin.courses.errors.instructorNameRequired',
  'admin.courses.errors.kindInvalid',
  'admin.courses.errors.languageInvalid',
  'admin.courses.errors.minimumInvalid',
  'admin.courses.errors.notMultipart',
  'admin.courses.errors.priceInvalid',
  'admin.courses.errors.previewPagesInvalid',
  'admin.courses.errors.tagsInvalid',
  'admin.courses.errors.titleRequired',
  'admin.courses.errors.uploadTooLarge',
  'admin.edit',
  'admin.saving',
  'blog.readingTime',
  'language.',
);

export default function BlogAdminIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <BlogAdmin {...props} />
    </I18nIsland>
  );
}

const API = '/api/admin/blog-posts';

type Editing = { mode: 'create' } | { mode: 'edit'; post: AdminPost };

function BlogAdmin({ lang, posts: initialPosts }: Props) {
  const { t } = useTranslation();
  const list = useRemoteList(
    initialPosts,
    async ({ search }) => {
      const result = await requestJson<{ posts: AdminPostRow[] }>('GET', `${API}?q=${encodeURIComponent(search)}`);
      return result.ok ? { ...result, data: result.data.posts } : result;
    },
    () => showToast('error', t('admin.blogs.loadFailed')),
  );
  const posts = list.data;
  const [editing, setEditing] = useState<Editing | null>(null);
  const [opening, setOpening] = useState<string | null>(null);
  const [toggling, setToggling] = useState<string | null>(null);

  const openEditor = async (row: AdminPostRow) => {
    setOpening(row.id);
    const result = await requestJson<{ post: AdminPost }>('GET', `${API}/${row.id}`);
    setOpening(null);
    if (result.ok) setEditing({ mode: 'edit', post: result.data.post });
    else showToast('error', t('admin.blogs.loadFailed'));
  };

  const togglePublished = async (row: AdminPostRow) => {
    setToggling(row.id);
    const result = await requestJson<{ post: AdminPostRow }>('PATCH', `${API}/${row.id}`, { published: !row.published });
    setToggling(null);
    if (!result.ok) return showToast('error', t('admin.blogs.statusFailed'));
    list.setData((current) => current.map((post) => (post.id === row.id ? result.data.post : post)));
    showToast('success', t(result.data.post.published ? 'admin.blogs.publishedToast' : 'admin.blogs.draftToast'));
  };

  const remove = useConfirm<AdminPostRow>(async (target) => {
    const result = await requestJson<{ deleted: true }>('DELETE', `${API}/${target.id}`);
    if (!result.ok) {
      showToast('error', t('admin.blogs.deleteFailed'));
      return result;
    }
    list.setData((current) => current.filter((post) => post.id !== target.id));
    showToast('success', t('admin.blogs.deleted'));
    return result;
  });

  const saved = (created: boolean) => {
    setEditing(null);
    showToast('success', t(created ? 'admin.blogs.created' : 'admin.blogs.updated'));
    void list.reload();
  };

  return (
    <div>
      <ListToolbar
        id="blog-search"
        searchLabel={t('admin.blogs.search')}
        placeholder={t('admin.blogs.searchPlaceholder')}
        search={list.search}
        onSearch={list.setSearch}
        onSubmit={list.submitSearch}
        addLabel={t('admin.blogs.new')}
        onAdd={() => setEditing({ mode: 'create' })}
      />

      <div className="mt-6">
        <AdminTable
          caption={t('admin.blogs.tableCaption')}
          columns={[
            { label: t('admin.blogs.columnPost') },
            { label: t('admin.blogs.columnAuthor') },
            { label: t('admin.blogs.columnStatus') },
            { label: t('admin.blogs.columnDate') },
            { label: t('admin.actions'), end: true },
          ]}
        >
          {posts.length === 0 && (
            <tr>
              <td colSpan={5} className="px-4 py-8 text-center text-gray-600">
                {t(list.search.trim() ? 'admin.blogs.noMatches' : 'admin.blogs.empty')}
              </td>
            </tr>
          )}
          {posts.map((post) => (
            <tr key={post.id}>
              <th scope="row" className="px-4 py-3 font-normal">
                <span className="block font-semibold text-gray-900" lang={post.language}>
                  {post.title}
                </span>
                <span className="mt-0.5 flex flex-wrap items-center gap-2 text-xs text-gray-600">
                  <span
                    className="rounded bg-gray-100 px-1.5 py-0.5 font-semibold uppercase"
                    title={t(`language.${post.language}`)}
                  >
                    <span aria-hidden="true">{post.language}</span>
                    <span className="sr-only">{t(`language.${post.language}`)}</span>
                  </span>
                  <code>/{post.slug}</code>
                  {post.fileDiffers && (
                    <span className="rounded bg-amber-100 px-1.5 py-0.5 font-semibold text-amber-900">
                      {t('admin.blogs.fileDiffersBadge')}
                    </span>
                  )}
                </span>
              </th>
              <td className="px-4 py-3">{post.author}</td>
              <td className="px-4 py-3">
                <Switch
                  checked={post.published}
                  busy={toggling === post.id}
                  onChange={() => void togglePublished(post)}
                  label={t('admin.blogs.publishedSwitch', { title: post.title })}
                  stateText={
                    post.status === 'scheduled' && post.publishedAt
                      ? t('admin.blogs.statusScheduled', { time: formatDateTime(post.publishedAt, lang) })
                      : t(post.published ? 'admin.blogs.statusPublished' : 'admin.blogs.statusDraft')
                  }
                />
              </td>
              <td className="whitespace-nowrap px-4 py-3">
                <time dateTime={post.date}>{formatDate(post.date, lang)}</time>
              </td>
              <td className="px-4 py-3">
                <div className="flex justify-end gap-2">
                  <RowAction
                    label={t('admin.edit')}
                    target={post.title}
                    onClick={() => void openEditor(post)}
                    disabled={opening === post.id}
                  />
                  <a
                    href={`/${post.language}/blog/${post.slug}`}
                    target="_blank"
                    rel="noopener"
                    className="rounded-lg border border-gray-300 px-3 py-1.5 font-medium hover:bg-gray-50"
                  >
                    {t('admin.blogs.view')}
                    <span className="sr-only">
                      {' '}
                      {post.title} ({t('admin.blogs.newTab')})
                    </span>
                  </a>
                  <RowAction label={t('admin.delete')} target={post.title} onClick={() => remove.ask(post)} danger />
                </div>
              </td>
            </tr>
          ))}
        </AdminTable>
      </div>

      <Dialog
        open={editing !== null}
        title={t(editing?.mode === 'edit' ? 'admin.blogs.editTitle' : 'admin.blogs.createTitle')}
        onClose={() => setEditing(null)}
      >
        {editing && (
          <BlogPostEditor
            key={editing.mode === 'edit' ? `${editing.post.id}-${editing.post.updatedAt}` : 'new'}
            lang={lang}
            post={editing.mode === 'edit' ? editing.post : undefined}
            onSaved={saved}
            onReplaced={(post) => {
              setEditing({ mode: 'edit', post });
              void list.reload();
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Dialog>

      <DeleteDialog
        {...remove.dialog}
        message={remove.target ? t('admin.blogs.confirmDelete', { title: remove.target.title }) : ''}
      />
    </div>
  );
}
