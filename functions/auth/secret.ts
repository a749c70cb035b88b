import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Outside production, a missing BETTER_AUTH_SECRET is generated once and kept in DATA_DIR,
 * so sessions survive restarts. Production must set it (checked by the env schema).
 */
export function ensureDevelopmentSecret(dataDir: string): void {
  if (process.env.BETTER_AUTH_SECRET || process.env.NODE_ENV === 'production') return;
  const file = path.join(dataDir, 'auth-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  }
  process.env.BETTER_AUTH_SECRET = readFileSync(file, 'utf8').trim();
}
