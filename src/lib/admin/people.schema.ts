import { z } from 'zod';
import {
  LOG_LEVELS,
  MAX_LOG_DATA_BYTES,
  MAX_LOG_MESSAGE_LENGTH,
  MAX_LOG_STACK_LENGTH,
  MAX_LOG_URL_LENGTH,
  MAX_LOG_USER_AGENT_LENGTH,
} from './log-limits.ts';

/**
 * Admin users, analytics, refunds and logs: inputs checked identically by islands and endpoints.
 * Client-safe. Messages are translation keys.
 */

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const RoleChangeSchema = z.object({ role: z.enum(ROLES, 'admin.people.users.roleInvalid') });
export type RoleChange = z.infer<typeof RoleChangeSchema>;

export const MAX_USER_SEARCH_LENGTH = 200;
/** The users table shows at most this many rows; a search narrows it down. */
export const USERS_LIST_LIMIT = 200;
export const NEW_USER_WINDOW_DAYS = 30;

// Control characters (NUL included, which PostgreSQL refuses in text) never reach a query.
const SearchText = z.string().transform((value) =>
  value
    .replace(/\p{Cc}/gu, ' ')
    .trim()
    .slice(0, MAX_USER_SEARCH_LENGTH),
);
export const UserSearchSchema = z.object({ q: SearchText.optional().catch(undefined) });

export const ANALYTICS_PERIODS = ['1month', '3months', '6months', '1year'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriod = '3months';
/** Months each period covers, the current month included. */
export const PERIOD_MONTHS: Record<AnalyticsPeriod, number> = { '1month': 1, '3months': 3, '6months': 6, '1year': 12 };
export const PeriodSchema = z.enum(ANALYTICS_PERIODS).catch(DEFAULT_ANALYTICS_PERIOD);

export const TOP_COURSES_COMPUTED = 10;
export const TOP_COURSES_SHOWN = 5;
export const RECENT_TRANSACTIONS = 10;
export const RECENT_SALES_SHOWN = 5;

/** A sale as the admin lists show it (overview, analytics). */
export type SaleStatus = 'completed' | 'refund_requested' | 'refunded' | 'disputed';
export interface SaleView {
  id: string;
  courseTitle: string;
  email: string;
  amountMinor: number;
  currency: string;
  /** ISO date of completion. */
  date: string;
  status: SaleStatus;
  provider: 'free' | 'stripe' | 'demo';
}

export function isRefundable(sale: Pick<SaleView, 'status' | 'provider' | 'amountMinor'>): boolean {
  return sale.status === 'completed' && sale.provider !== 'free' && sale.amountMinor > 0;
}

// Client logger entries, as browsers report them to /api/client-errors.
export * from './log-limits.ts';

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
