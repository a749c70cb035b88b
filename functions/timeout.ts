/**
 * `work`'s outcome, or `fallback` once `ms` have passed, whichever comes first. The timer is cleared as
 * soon as the work ends: a pending timer keeps the async context it was made in (a request's, its
 * response included) alive until it fires. A health check's 2 s timer under a load balancer's checks
 * held about 60 MB that way.
 */
export async function within<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
