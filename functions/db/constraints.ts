import type { Failure, Result } from '../../src/lib/result.ts';

/** PostgreSQL's SQLSTATE codes for the constraint violations a use case can expect. */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Runs a write and turns the constraint violations it may meet into the refusals they mean: a
 * unique violation is something already taken, a foreign-key violation something still in use.
 * The database stays the judge under concurrency; nothing outside functions/ sees its codes.
 */
export async function refusingViolations<T>(
  write: () => Promise<Result<T>>,
  refusals: { unique?: Failure; foreignKey?: Failure },
): Promise<Result<T>> {
  try {
    return await write();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === UNIQUE_VIOLATION && refusals.unique) return refusals.unique;
    if (code === FOREIGN_KEY_VIOLATION && refusals.foreignKey) return refusals.foreignKey;
    throw error;
  }
}
