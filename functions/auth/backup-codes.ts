import { auth } from './auth.ts';

/** How many unused backup codes an account with two-factor still holds (better-auth decrypts them). */
export async function backupCodesLeft(userId: string): Promise<number | null> {
  const result = await auth()
    .api.viewBackupCodes({ body: { userId } })
    .catch(() => null);
  return result ? result.backupCodes.length : null;
}
