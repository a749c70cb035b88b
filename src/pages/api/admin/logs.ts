import { clearClientLogs, listClientLogs } from '../../../../functions/admin/client-logs.ts';
import { LogsQuerySchema } from '../../../lib/admin/logs.schema.ts';
import { adminEndpoint } from '../../../server/admin-endpoint.ts';
import { noStoreJson } from '../../../lib/http.ts';

export const prerender = false;

/** Logs browsers reported (client_logs), newest first; `?level=error&q=text` to filter. */
export const GET = adminEndpoint(async (context) => {
  const { level, q } = LogsQuerySchema.parse({
    level: context.url.searchParams.get('level') ?? undefined,
    q: context.url.searchParams.get('q') ?? undefined,
  });
  const logs = await listClientLogs({ level, search: q || undefined });
  return noStoreJson({ logs });
});

/** Clears every server-side log (the viewer asks for confirmation first). */
export const DELETE = adminEndpoint(async () => {
  const deleted = await clearClientLogs();
  return noStoreJson({ deleted });
});
