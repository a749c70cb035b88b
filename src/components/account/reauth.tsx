import type { ComponentProps } from 'react';
import type { ApiFailure } from '../../lib/api-client.ts';
import { PasswordField } from '../forms/fields.tsx';
import { useTranslation } from '../islands/I18nIsland.tsx';

/**
 * What a security change asks before it goes through: the password, or, for an account without one
 * (passkey, link or OpenID only), nothing to type, since the server asks for a fresh sign-in instead.
 */
export function ReauthField({
  hasPassword,
  ...password
}: { hasPassword: boolean } & Omit<ComponentProps<typeof PasswordField>, 'label' | 'autoComplete'>) {
  const { t } = useTranslation();
  if (!hasPassword) return <p className="text-sm text-gray-700">{t('twoFactor.freshSignIn')}</p>;
  return <PasswordField label={t('twoFactor.password')} autoComplete="current-password" {...password} />;
}

/** A re-authentication's wrong password is said at its field; the rest above the button. */
export function passwordFailure(result: ApiFailure): ApiFailure {
  return result.message === 'settings.wrongCurrentPassword' ? { ...result, fields: { password: result.message } } : result;
}
