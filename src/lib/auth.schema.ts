import { z } from './zod.ts';
import { uuidSchema } from './uuid.schema.ts';
import { EmailSchema, LanguageSchema } from './validation.ts';

/** Account forms, checked identically in the islands and on the server. Messages are translation keys. */
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;

const Password = z.string().min(MIN_PASSWORD_LENGTH, 'validation.passwordMin').max(MAX_PASSWORD_LENGTH, 'validation.tooLong');
const FullName = z.string().trim().min(2, 'validation.fullNameMin').max(200, 'validation.tooLong');

export const LoginSchema = z.object({ email: EmailSchema, password: Password });

export const SignupSchema = z
  .object({ fullName: FullName, email: EmailSchema, password: Password, confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, {
    message: 'validation.passwordsDontMatch',
    path: ['confirmPassword'],
  });

export const ForgotPasswordSchema = z.object({ email: EmailSchema });

export const SignInLinkSchema = z.object({ email: EmailSchema });

export const ResetPasswordSchema = z
  .object({ password: Password, confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, {
    message: 'validation.passwordsDontMatch',
    path: ['confirmPassword'],
  });

export const ProfileSchema = z.object({ fullName: FullName, language: LanguageSchema });

export const ChangePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, 'validation.currentPasswordRequired').max(MAX_PASSWORD_LENGTH, 'validation.tooLong'),
    newPassword: Password,
    confirmPassword: z.string(),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: 'validation.passwordsDontMatch',
    path: ['confirmPassword'],
  });

/** A link-only account's first password (Settings). */
export const SetPasswordSchema = z
  .object({ newPassword: Password, confirmPassword: z.string() })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: 'validation.passwordsDontMatch',
    path: ['confirmPassword'],
  });
export const SetPasswordRequestSchema = z.object({ newPassword: Password });

export const ChangeEmailSchema = z.object({ newEmail: EmailSchema });

/** Deleting an account: the password again when it has one, and an explicit yes. */
export const DeleteAccountSchema = z.object({
  password: z.string().max(MAX_PASSWORD_LENGTH, 'validation.tooLong'),
  confirm: z.literal(true, 'settings.deleteConfirmRequired'),
});

/** An authenticator app's six digits (spaces between groups allowed, as apps show them). */
export const TOTP_CODE_LENGTH = 6;
export const TotpCode = z
  .string()
  .max(20, 'twoFactor.codeInvalid')
  .transform((code) => code.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'twoFactor.codeInvalid'));
/** A backup code as the download shows it (`abcde-12345`). */
export const BackupCode = z
  .string()
  .trim()
  .min(1, 'twoFactor.backupCodeInvalid')
  .max(40, 'twoFactor.backupCodeInvalid')
  .regex(/^[A-Za-z0-9-]+$/, 'twoFactor.backupCodeInvalid');
/** Re-authentication: the password when the account has one (a link-only account signs in afresh instead). */
const ReauthPassword = z.string().max(MAX_PASSWORD_LENGTH, 'validation.tooLong').optional();

export const TotpCodeSchema = z.object({ code: TotpCode });
export const BackupCodeSchema = z.object({ code: BackupCode });
export const ReauthSchema = z.object({ password: z.string().max(MAX_PASSWORD_LENGTH, 'validation.tooLong') });

/** A path on this site that better-auth may send the browser to after a link (it checks the origin too). */
const CallbackPath = z.string().max(2000, 'validation.tooLong').optional();

/**
 * Passkeys (WebAuthn): the name an owner gives one in Settings, and the browser's answers to a
 * ceremony as @simplewebauthn/browser sends them (base64url fields, bounded; the signatures and
 * keys inside are checked by @simplewebauthn/server).
 */
export const PASSKEY_NAME_MAX = 60;
const Name = z.string().trim().min(1, 'passkeys.nameRequired').max(PASSKEY_NAME_MAX, 'validation.tooLong');

/** Settings' forms: a name (renaming), and for adding one the password again when the account has one. */
export const PasskeyNameSchema = z.object({ name: Name });
export const AddPasskeySchema = z.object({ name: Name, password: z.string().max(MAX_PASSWORD_LENGTH, 'validation.tooLong') });

/**
 * The passkey algorithms the shop offers (COSE ids, the preferred first) and the longest signature
 * each makes, in bytes (RS256 with keys up to 4,096 bits). Every size limit below fits all of them:
 * an authenticator the shop lets register must be able to sign in.
 */
export const PASSKEY_ALGORITHMS = [
  { name: 'ML-DSA-44', id: -48, signatureBytes: 2420 },
  { name: 'Ed25519', id: -8, signatureBytes: 64 },
  { name: 'ES256', id: -7, signatureBytes: 72 },
  { name: 'RS256', id: -257, signatureBytes: 512 },
] as const;

/** The length of `bytes` bytes in base64url, padded or not. */
const base64UrlLength = (bytes: number) => 4 * Math.ceil(bytes / 3);
const PASSKEY_SIGNATURE_MAX = base64UrlLength(Math.max(...PASSKEY_ALGORITHMS.map((algorithm) => algorithm.signatureBytes)));

const Base64Url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/);
const ChallengeId = uuidSchema();
const ClientExtensionResults = z.record(z.string().max(100), z.unknown()).default({});
const Attachment = z.enum(['platform', 'cross-platform']).optional();

export const RegistrationResponseSchema = z.object({
  id: Base64Url(1400),
  rawId: Base64Url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: Attachment,
  clientExtensionResults: ClientExtensionResults,
  response: z.object({
    clientDataJSON: Base64Url(4000),
    attestationObject: Base64Url(40_000),
    transports: z.array(z.string().max(30)).max(10).optional(),
  }),
});

export const AuthenticationResponseSchema = z.object({
  id: Base64Url(1400),
  rawId: Base64Url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: Attachment,
  clientExtensionResults: ClientExtensionResults,
  response: z.object({
    clientDataJSON: Base64Url(4000),
    authenticatorData: Base64Url(4000),
    signature: Base64Url(PASSKEY_SIGNATURE_MAX),
    userHandle: Base64Url(200).optional(),
  }),
});

/** Re-authentication before a registration: the password when the account has one. */
export const PasskeyOptionsRequestSchema = z.strictObject({ password: ReauthPassword });
export const RegisterPasskeyRequestSchema = z.strictObject({
  challengeId: ChallengeId,
  name: Name,
  response: RegistrationResponseSchema,
});
export const RenamePasskeyRequestSchema = z.strictObject({ name: Name });
/** Removing a passkey: re-authentication, as for the other sensitive changes. */
export const RemovePasskeyRequestSchema = z.strictObject({ password: ReauthPassword });
export const PasskeySignInRequestSchema = z.strictObject({ challengeId: ChallengeId, response: AuthenticationResponseSchema });

/**
 * better-auth's request bodies as the islands send them, checked on the server with the islands'
 * rules before better-auth sees them (field names are better-auth's: `name`, not `fullName`).
 */
export const AUTH_REQUEST_SCHEMAS = {
  '/sign-up/email': z.strictObject({
    name: FullName,
    email: EmailSchema,
    password: Password,
    language: LanguageSchema.optional(),
    callbackURL: CallbackPath,
  }),
  '/sign-in/email': z.strictObject({
    email: EmailSchema,
    password: Password,
    rememberMe: z.boolean().optional(),
    callbackURL: CallbackPath,
  }),
  '/sign-in/magic-link': z.strictObject({
    email: EmailSchema,
    callbackURL: CallbackPath,
    errorCallbackURL: CallbackPath,
  }),
  '/request-password-reset': z.strictObject({ email: EmailSchema, redirectTo: CallbackPath }),
  '/reset-password': z.strictObject({ newPassword: Password, token: z.string().min(1).max(200) }),
  '/send-verification-email': z.strictObject({ email: EmailSchema, callbackURL: CallbackPath }),
  '/update-user': z.strictObject({ name: FullName.optional(), language: LanguageSchema.optional() }),
  '/change-password': z.strictObject({
    currentPassword: z.string().min(1, 'validation.currentPasswordRequired').max(MAX_PASSWORD_LENGTH, 'validation.tooLong'),
    newPassword: Password,
    revokeOtherSessions: z.boolean().optional(),
  }),
  '/change-email': z.strictObject({ newEmail: EmailSchema, callbackURL: CallbackPath }),
  // Two-factor: an authenticator (never e-mailed codes), and no "trust this device": every
  // password sign-in of an account with two-factor asks for a code.
  '/two-factor/enable': z.strictObject({ password: ReauthPassword }),
  '/two-factor/disable': z.strictObject({ password: ReauthPassword }),
  '/two-factor/generate-backup-codes': z.strictObject({ password: ReauthPassword }),
  '/two-factor/verify-totp': z.strictObject({ code: TotpCode }),
  '/two-factor/verify-backup-code': z.strictObject({ code: BackupCode }),
  // OpenID providers (decision 22): a configured provider by id; never an ID token from the browser.
  '/sign-in/social': z.strictObject({
    provider: z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, 'errors.badRequest'),
    callbackURL: CallbackPath,
    newUserCallbackURL: CallbackPath,
    errorCallbackURL: CallbackPath,
    disableRedirect: z.boolean().optional(),
    additionalData: z.strictObject({ language: LanguageSchema }).optional(),
  }),
  '/unlink-account': z.strictObject({ accountId: uuidSchema('errors.badRequest') }),
  // Passkeys: a sign-in (or a signed-in session's second factor) by a discoverable credential.
  '/passkey/sign-in-options': z.strictObject({}),
  '/passkey/sign-in': PasskeySignInRequestSchema,
} as const;
export type AuthRequestPath = keyof typeof AUTH_REQUEST_SCHEMAS;
