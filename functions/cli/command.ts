/**
 * Why a start failed, as the person starting the shop needs it: what went wrong and what to do, in a
 * line or two, never a stack trace. Errors we raise ourselves already say what to do.
 */
export function explainFailure(error: unknown): string {
  const failure = error as NodeJS.ErrnoException & { address?: string; port?: number; syscall?: string };
  if (!(error instanceof Error)) return String(error);
  if (failure.code === 'EADDRINUSE') {
    return `port ${failure.port ?? ''} on ${failure.address ?? 'this machine'} is already in use: stop the other server or set PORT to a free port.`;
  }
  if (failure.code === 'EACCES' && failure.syscall === 'listen') {
    return `not allowed to listen on port ${failure.port ?? ''}: use a port above 1023 (PORT) or run behind a proxy.`;
  }
  if (failure.code === 'ECONNREFUSED' || failure.code === 'ENOTFOUND' || failure.code === 'ETIMEDOUT') {
    const where = failure.address
      ? `${failure.address}:${failure.port ?? ''}`
      : ((failure as { hostname?: string }).hostname ?? 'the database');
    return `cannot reach PostgreSQL at ${where} (${failure.code}): check DATABASE_URL, or leave it empty to use the embedded database.`;
  }
  if (/password authentication failed|does not exist|no pg_hba\.conf entry/.test(failure.message)) {
    return `PostgreSQL refused the connection (${failure.message}): check the user, password and database name in DATABASE_URL.`;
  }
  return failure.message;
}

/**
 * Runs a command-line entry point: on failure, one line saying what to do (exit code 1). `cleanup`
 * runs either way (stop the database the command started).
 */
export async function runCommand(
  failedTo: string,
  work: () => Promise<void>,
  cleanup: () => Promise<unknown> = async () => {},
): Promise<void> {
  try {
    await work();
  } catch (error) {
    console.error(`\n  Could not ${failedTo}: ${explainFailure(error)}\n`);
    process.exitCode = 1;
  } finally {
    await cleanup().catch((error: unknown) => console.error(`  Cleaning up failed: ${explainFailure(error)}`));
  }
}
