import { z } from '../zod.ts';
import {
  LOG_LEVELS,
  MAX_LOG_DATA_BYTES,
  MAX_LOG_MESSAGE_LENGTH,
  MAX_LOG_STACK_LENGTH,
  MAX_LOG_URL_LENGTH,
  MAX_LOG_USER_AGENT_LENGTH,
} from './log-limits.ts';
import { SearchText } from './search-text.ts';

/** Client logger entries, as browsers report them to /api/client-errors, and the logs viewer's query. */
// PostgreSQL refuses NUL in text and in jsonb strings: it is dropped from every reported value.
const NoControl = (max: number) =>
  z
    .string()
    .max(max, 'validation.tooLong')
    .transform((value) => value.replaceAll('\u0000', ''));

const MAX_LOG_DATA_DEPTH = 20;

function withoutNul(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replaceAll('\u0000', '');
  if (depth >= MAX_LOG_DATA_DEPTH && value && typeof value === 'object') return '[nested too deeply]';
  if (Array.isArray(value)) return value.map((item) => withoutNul(item, depth + 1));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key.replaceAll('\u0000', ''), withoutNul(item, depth + 1)]),
    );
  return value;
}

export const ClientLogSchema = z.object({
  level: z.enum(LOG_LEVELS),
  message: NoControl(MAX_LOG_MESSAGE_LENGTH).pipe(z.string().min(1)),
  data: z
    .unknown()
    .optional()
    .transform((value) => withoutNul(value))
    .refine((value) => value === undefined || JSON.stringify(value).length <= MAX_LOG_DATA_BYTES, 'validation.tooLong'),
  stack: NoControl(MAX_LOG_STACK_LENGTH).optional(),
  url: NoControl(MAX_LOG_URL_LENGTH).optional(),
  userAgent: NoControl(MAX_LOG_USER_AGENT_LENGTH).optional(),
  timestamp: z.iso.datetime({ offset: true }).optional(),
  // The browser's idea of who is signed in; the server records the session's user instead.
  userId: z.string().max(64).nullable().optional(),
});
export type ClientLogReport = z.infer<typeof ClientLogSchema>;

export const LogsQuerySchema = z.object({
  level: z.enum(LOG_LEVELS).optional().catch(undefined),
  q: SearchText.optional().catch(undefined),
});
