import type { ApiFailure } from '../../lib/api-client.ts';
import { PasswordField } from '../forms/fields.tsx';
import { useTranslation } from '../islands/I18nIsland.tsx';

/**
 * What a security change asks before it goes through: the password, or, for an account without one
 * (passkey, link or OpenID only), nothing to type, since the server asks for a fresh sign-in instead.
 */
export function ReauthField({
  hasPassword,
  hint,
  ...password
}: { hasPassword: boolean; hint?: string } & {
  id: string;
  name: string;
  value: string;
  error: string | undefined;
  onChange: (event: { target: { value: string } }) => void;
}) {
  const { t } = useTranslation();
  if (!hasPassword) return <p className="text-sm text-gray-700">{t('twoFactor.freshSignIn')}</p>;
  return <PasswordField label={t('twoFactor.password')} hint={hint} autoComplete="current-password" {...password} />;
}

/** A re-authentication's wrong password is said at its field; the rest above the button. */
export function passwordFailure(result: ApiFailure): ApiFailure {
  return result.message === 'settings.wrongCurrentPassword' ? { ...result, fields: { password: result.message } } : result;
}
