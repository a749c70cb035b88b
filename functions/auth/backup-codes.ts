import { auth } from './auth.ts';

/** The unused backup codes of an account with two-factor (better-auth decrypts them); null without two-factor. */
export async function backupCodesOf(userId: string): Promise<string[] | null> {
  const result = await auth()
    .api.viewBackupCodes({ body: { userId } })
    .catch(() => null);
  return result ? result.backupCodes : null;
}

/** How many unused backup codes an account with two-factor still holds. */
export async function backupCodesLeft(userId: string): Promise<number | null> {
  return (await backupCodesOf(userId))?.length ?? null;
}
