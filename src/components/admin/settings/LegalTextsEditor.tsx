import { useState } from 'react';
import { SelectField, TextAreaField } from '../../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../../forms/use-form.tsx';
import { I18nIsland, useTranslation } from '../../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../../i18n/translate.ts';
import { ADMIN_SHARED } from '../../../i18n/admin-shared.ts';
import { useConfirm } from '../use-confirm.ts';
import { ConfirmDialog } from '../Dialog.tsx';
import {
  LEGAL_PLACEHOLDERS,
  LegalTextSchema,
  ORDER_PLACEHOLDERS,
  type LegalPage,
} from '../../../lib/admin/shop-settings.schema.ts';
import { requestJson } from '../../../lib/api-client.ts';
import { showToast } from '../../../stores/toasts.ts';
import { LANGUAGES, type Language } from '../../../i18n/languages.ts';
import type { MessageKey } from '../../../i18n/i18n.ts';

export interface LegalTextState {
  body: string;
  custom: boolean;
}

interface Props {
  lang: Language;
  messages: IslandMessages;
  /** Every legal text of every language, as it is now. */
  texts: Record<Language, Partial<Record<LegalPage, LegalTextState>>>;
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ADMIN_SHARED, 'admin.settings.', 'language.');

export default function LegalTextsEditorIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <LegalTextsEditor {...props} />
    </I18nIsland>
  );
}

const ID = 'legal';
const PAGE_NAMES = {
  terms: 'admin.settings.legalPages.terms',
  privacy: 'admin.settings.legalPages.privacy',
  refund: 'admin.settings.legalPages.refund',
  'pre-information': 'admin.settings.legalPages.preInformation',
  'distance-contract': 'admin.settings.legalPages.distanceContract',
} as const satisfies Record<LegalPage, MessageKey>;

/** One legal text at a time: language, page, its wording; "Restore the shipped wording" undoes the seller's. */
function LegalTextsEditor({ lang, texts: initialTexts }: Props) {
  const { t } = useTranslation();
  const [texts, setTexts] = useState(initialTexts);
  const [language, setLanguage] = useState<Language>(lang);
  const pages = Object.keys(texts[language]) as LegalPage[];
  const [page, setPage] = useState<LegalPage>('terms');
  const current = texts[language][page] ?? texts[language].terms!;
  const form = useForm(LegalTextSchema, { body: current.body }, { idPrefix: ID });

  const show = (nextLanguage: Language, nextPage: LegalPage) => {
    const available = texts[nextLanguage][nextPage] ? nextPage : 'terms';
    setLanguage(nextLanguage);
    setPage(available);
    form.setValues({ body: texts[nextLanguage][available]!.body });
    form.setErrors({});
    form.setFailure(null);
  };

  const stored = (text: LegalTextState) => {
    setTexts((all) => ({ ...all, [language]: { ...all[language], [page]: text } }));
    form.setValues({ body: text.body });
  };

  const submit = form.handleSubmit(async (data) => {
    const result = await requestJson<LegalTextState>('PUT', `/api/admin/legal-texts/${language}/${page}`, data);
    if (result.ok) {
      stored(result.data);
      showToast('success', t('admin.settings.legalSaved'));
    }
    return result;
  });

  const restore = useConfirm<{ language: Language; page: LegalPage }>(async (target) => {
    const result = await requestJson<LegalTextState>('DELETE', `/api/admin/legal-texts/${target.language}/${target.page}`);
    if (result.ok) {
      stored(result.data);
      showToast('success', t('admin.settings.restored'));
    }
    return result;
  });

  const placeholders = [
    ...LEGAL_PLACEHOLDERS,
    ...(page === 'pre-information' || page === 'distance-contract' ? ORDER_PLACEHOLDERS : []),
  ];

  return (
    <>
      <Form onSubmit={submit} className="space-y-4">
        <div className="grid gap-4 md:grid-cols-2">
          <SelectField
            id={`${ID}-language`}
            label={t('admin.settings.legalLanguage')}
            value={language}
            onChange={(event) => show(event.target.value as Language, page)}
          >
            {LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {t(`language.${code}`)}
              </option>
            ))}
          </SelectField>
          <SelectField
            id={`${ID}-page`}
            label={t('admin.settings.legalPage')}
            value={page}
            onChange={(event) => show(language, event.target.value as LegalPage)}
          >
            {pages.map((name) => (
              <option key={name} value={name}>
                {t(PAGE_NAMES[name])}
              </option>
            ))}
          </SelectField>
        </div>
        <p className="text-sm text-gray-700" aria-live="polite">
          {current.custom ? t('admin.settings.legalCustom') : t('admin.settings.legalShipped')}
        </p>
        <TextAreaField
          label={t('admin.settings.legalBody', { page: t(PAGE_NAMES[page]) })}
          rows={18}
          lang={language}
          className="mt-1 w-full rounded-lg border border-gray-300 bg-white px-3 py-2 font-mono text-sm aria-invalid:border-red-500"
          hint={t('admin.settings.legalHint', { placeholders: placeholders.map((name) => `{{${name}}}`).join(', ') })}
          {...form.bind('body')}
        />
        <FormFailure message={form.failure} />
        <div className="flex flex-wrap justify-end gap-3">
          {current.custom && (
            <button
              type="button"
              onClick={() => restore.ask({ language, page })}
              className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
            >
              {t('admin.settings.restore')}
            </button>
          )}
          <SubmitButton busy={form.busy} label={t('admin.settings.legalSave')} busyLabel={t('admin.settings.saving')} />
        </div>
      </Form>
      <ConfirmDialog
        {...restore.dialog}
        title={t('admin.settings.restoreTitle')}
        message={t('admin.settings.restoreMessage')}
        confirmLabel={t('admin.settings.restore')}
      />
    </>
  );
}
