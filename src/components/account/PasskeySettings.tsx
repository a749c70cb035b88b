import { useState } from 'react';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { useBrowserValue } from '../islands/use-browser-value.ts';
import { TextField } from '../forms/fields.tsx';
import { Form, FormFailure, instead, SubmitButton, useForm } from '../forms/use-form.tsx';
import { postJson, requestJson, type ApiFailure, type ApiResult } from '../../lib/api-client.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';
import { showToast } from '../../stores/toasts.ts';
import { Moment } from './SessionList.tsx';
import { passwordFailure, ReauthField } from './reauth.tsx';
import type { PostedForm } from '../../lib/posted-form.ts';

/** A passkey as Settings lists it (functions/auth/passkeys.ts): never its key. */
export interface PasskeyItem {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The forms' schemas, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../lib/auth.schema.ts');

interface Props {
  messages: IslandMessages;
  lang: Language;
  passkeys: PasskeyItem[];
  /** Re-authentication by password; an account without one needs a sign-in of the last minutes. */
  hasPassword: boolean;
  /** One of Settings' forms as the page answered it: "Add" sent before the script ran says it needs it. */
  posted?: PostedForm | undefined;
  /** The passkey whose rename or remove form is open (the page's `?passkey=&edit=`, before the script runs). */
  editing?: Editing | undefined;
}

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(
  ...ACCOUNT_ANSWERS,
  'passkeys.',
  'reset.invalidTitle',
  'sessions.lastActive',
  'sessions.signOut',
  'sessions.signOutDevice',
  'sessions.signOutEverywhere',
  'sessions.signOutOthers',
  'sessions.signedIn',
  'sessions.signedOutEverywhere',
  'sessions.signedOutOne',
  'sessions.signedOutOthers',
  'sessions.signingOut',
  'sessions.thisDevice',
  'twoFactor.freshSignIn',
  'twoFactor.password',
);

export default function PasskeySettingsIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <PasskeySettings {...props} />
    </I18nIsland>
  );
}

export type Editing = { id: string; action: 'rename' | 'remove' } | null;

/** The form a posted answer belongs to (`passkey-rename-<id>`) stays open. */
function editingOf(posted: PostedForm | undefined): Editing {
  const match = /^passkey-(rename|remove)-(.+)$/.exec(posted?.form ?? '');
  return match ? { action: match[1] as 'rename' | 'remove', id: match[2]! } : null;
}

function PasskeySettings({ lang, passkeys: initial, hasPassword, posted, editing: opened }: Props) {
  const { t } = useTranslation();
  const [passkeys, setPasskeys] = useState(initial);
  const [editing, setEditing] = useState<Editing>(editingOf(posted) ?? opened ?? null);
  const settings = localizedPath(lang, '/dashboard/settings');
  const open = (id: string, action: 'rename' | 'remove') => `${settings}?passkey=${id}&edit=${action}#passkeys`;
  const closed = `${settings}#passkeys`;
  const supported = useBrowserValue(() => typeof window.PublicKeyCredential === 'function', true);

  return (
    <div className="space-y-4">
      {passkeys.length === 0 ? (
        <p className="text-sm text-gray-600">{t('passkeys.none')}</p>
      ) : (
        <ul aria-label={t('passkeys.listLabel')} className="divide-y divide-gray-200 rounded-lg border border-gray-200">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="space-y-3 p-3">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="font-medium break-words">{passkey.name}</p>
                  <p className="text-sm text-gray-600">
                    {t('passkeys.created')} <Moment iso={passkey.createdAt} lang={lang} />
                  </p>
                  <p className="text-sm text-gray-600">
                    {t('passkeys.lastUsed')}{' '}
                    {passkey.lastUsedAt ? <Moment iso={passkey.lastUsedAt} lang={lang} /> : t('passkeys.neverUsed')}
                  </p>
                </div>
                {editing?.id !== passkey.id && (
                  <div className="flex flex-wrap gap-2">
                    <a
                      href={open(passkey.id, 'rename')}
                      onClick={instead(() => setEditing({ id: passkey.id, action: 'rename' }))}
                      aria-label={t('passkeys.renameNamed', { name: passkey.name })}
                      className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm font-medium hover:bg-gray-50"
                    >
                      {t('passkeys.rename')}
                    </a>
                    <a
                      href={open(passkey.id, 'remove')}
                      onClick={instead(() => setEditing({ id: passkey.id, action: 'remove' }))}
                      aria-label={t('passkeys.removeNamed', { name: passkey.name })}
                      className="rounded-lg border border-red-300 px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50"
                    >
                      {t('passkeys.remove')}
                    </a>
                  </div>
                )}
              </div>
              {editing?.id === passkey.id && editing.action === 'rename' && (
                <RenameForm
                  passkey={passkey}
                  posted={posted}
                  closed={closed}
                  onCancel={() => setEditing(null)}
                  onRenamed={(name) => {
                    setPasskeys((current) => current.map((item) => (item.id === passkey.id ? { ...item, name } : item)));
                    setEditing(null);
                    showToast('success', t('passkeys.renamed'));
                  }}
                />
              )}
              {editing?.id === passkey.id && editing.action === 'remove' && (
                <RemoveForm
                  passkey={passkey}
                  hasPassword={hasPassword}
                  posted={posted}
                  closed={closed}
                  onCancel={() => setEditing(null)}
                  onRemoved={() => {
                    setPasskeys((current) => current.filter((item) => item.id !== passkey.id));
                    setEditing(null);
                    showToast('success', t('passkeys.removed'));
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="hidden text-sm text-amber-900 noscript:block">{t('passkeys.needsJavaScript')}</p>
      {supported ? (
        <AddForm
          hasPassword={hasPassword}
          posted={posted}
          onAdded={(passkey) => {
            setPasskeys((current) => [...current, passkey]);
            showToast('success', t('passkeys.added'));
          }}
        />
      ) : (
        <p className="text-sm text-amber-900">{t('passkeys.unsupported')}</p>
      )}
    </div>
  );
}

function AddForm({
  hasPassword,
  onAdded,
  posted,
}: {
  hasPassword: boolean;
  onAdded: (passkey: PasskeyItem) => void;
  posted: PostedForm | undefined;
}) {
  const { t } = useTranslation();
  const form = useForm(
    () => schemas().then((s) => s.AddPasskeySchema),
    { name: '', password: '' },
    { idPrefix: 'passkey-add', posted },
  );
  const submit = form.handleSubmit(async (data) => {
    const result = await addPasskey(data.name, hasPassword ? data.password : undefined);
    if (!result.ok) return passwordFailure(result);
    form.setValues({ name: '', password: '' });
    onAdded(result.data.passkey);
    return undefined;
  });
  return (
    <Form name={form.name} onSubmit={submit} className="space-y-4 border-t border-gray-200 pt-4 noscript:hidden">
      <TextField label={t('passkeys.name')} hint={t('passkeys.nameHint')} autoComplete="off" {...form.bind('name')} />
      <ReauthField hasPassword={hasPassword} hint={t('passkeys.passwordHint')} {...form.bind('password')} />
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('passkeys.add')} busyLabel={t('passkeys.adding')} />
    </Form>
  );
}

/** What a passkey's own rename or remove form takes besides its work. */
interface EditFormProps {
  passkey: PasskeyItem;
  posted: PostedForm | undefined;
  /** Settings without the form open: where Cancel goes before the script runs. */
  closed: string;
  onCancel: () => void;
}

function RenameForm({ passkey, posted, closed, onCancel, onRenamed }: EditFormProps & { onRenamed: (name: string) => void }) {
  const { t } = useTranslation();
  const form = useForm(
    () => schemas().then((s) => s.PasskeyNameSchema),
    { name: passkey.name },
    { idPrefix: `passkey-rename-${passkey.id}`, posted },
  );
  const submit = form.handleSubmit(async (data) => {
    const result = await requestJson<{ name: string }>('PATCH', `/api/account/passkeys/${passkey.id}`, { name: data.name });
    if (!result.ok) return result;
    onRenamed(result.data.name);
    return undefined;
  });
  return (
    <Form name="passkey-rename" onSubmit={submit} className="space-y-3">
      <input type="hidden" name="passkey" value={passkey.id} />
      <TextField label={t('passkeys.newName', { name: passkey.name })} autoComplete="off" {...form.bind('name')} />
      <FormFailure message={form.failure} />
      <div className="flex flex-wrap gap-3">
        <SubmitButton busy={form.busy} label={t('passkeys.save')} busyLabel={t('passkeys.saving')} />
        <CancelLink href={closed} onCancel={onCancel} />
      </div>
    </Form>
  );
}

/** Removing asks again who is there: the password, or a fresh sign-in for an account without one. */
function RemoveForm({
  passkey,
  hasPassword,
  posted,
  closed,
  onCancel,
  onRemoved,
}: EditFormProps & { hasPassword: boolean; onRemoved: () => void }) {
  const { t } = useTranslation();
  const form = useForm(
    () => schemas().then((s) => s.ReauthSchema),
    { password: '' },
    { idPrefix: `passkey-remove-${passkey.id}`, posted },
  );
  const submit = form.handleSubmit(async (data) => {
    const result = await requestJson('DELETE', `/api/account/passkeys/${passkey.id}`, {
      password: hasPassword ? data.password : undefined,
    });
    if (!result.ok) return passwordFailure(result);
    onRemoved();
    return undefined;
  });
  return (
    <Form name="passkey-remove" onSubmit={submit} className="space-y-3 rounded-lg bg-red-50 p-3">
      <input type="hidden" name="passkey" value={passkey.id} />
      <p className="text-sm font-medium text-red-900">{t('passkeys.removeConfirm', { name: passkey.name })}</p>
      <ReauthField hasPassword={hasPassword} hint={t('passkeys.passwordHint')} {...form.bind('password')} />
      <FormFailure message={form.failure} />
      <div className="flex flex-wrap gap-3">
        <SubmitButton busy={form.busy} label={t('passkeys.remove')} busyLabel={t('passkeys.removing')} tone="danger" />
        <CancelLink href={closed} onCancel={onCancel} />
      </div>
    </Form>
  );
}

/** Cancel: the island closes the form; before it runs, the link opens Settings without it. */
function CancelLink({ href, onCancel }: { href: string; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <a
      href={href}
      onClick={instead(onCancel)}
      className="rounded-lg border border-gray-300 bg-white px-4 py-2 font-medium hover:bg-gray-50"
    >
      {t('passkeys.cancel')}
    </a>
  );
}

/**
 * "Add a passkey": the password again (when the account has one), the ceremony, the name. The
 * WebAuthn code is loaded when the ceremony starts.
 */
async function addPasskey(name: string, password: string | undefined): Promise<ApiResult<{ passkey: PasskeyItem }>> {
  const options = await postJson<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }>(
    '/api/account/passkeys/options',
    { password },
  );
  if (!options.ok) return options;
  const { startRegistration } = await import('../../lib/webauthn-registration.ts');
  let response;
  try {
    response = await startRegistration({ optionsJSON: options.data.options });
  } catch (error) {
    return ceremonyFailure(error);
  }
  return postJson('/api/account/passkeys', { challengeId: options.data.challengeId, name, response });
}

/** A ceremony the person stopped (cancelled, timed out), an authenticator already added, or another failure. */
function ceremonyFailure(error: unknown): ApiFailure {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  const message =
    code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'
      ? 'passkeys.alreadyAdded'
      : name === 'NotAllowedError' || name === 'AbortError'
        ? 'passkeys.cancelled'
        : 'passkeys.addFailed';
  return { ok: false, message, fields: {}, status: 0 };
}
