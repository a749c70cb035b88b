/** Limits of a client log report, shared by the browser logger and the server's schema (no zod here: the logger ships to every page that uses it). */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const MAX_LOG_MESSAGE_LENGTH = 2000;
export const MAX_LOG_STACK_LENGTH = 8000;
export const MAX_LOG_DATA_BYTES = 8000;
export const MAX_LOG_URL_LENGTH = 2000;
export const MAX_LOG_USER_AGENT_LENGTH = 500;
/** Whole request body of a report: a few fields of bounded length. */
export const MAX_CLIENT_LOG_BODY_BYTES = 24 * 1024;
export const CLIENT_ERRORS_ENDPOINT = '/api/client-errors';

/** A log entry as the viewer shows it, from the server (client_logs) or this browser's memory. */
export interface LogEntry {
  timestamp: string;
  level: LogLevel;
  message: string;
  data?: unknown;
  userAgent?: string | undefined;
  url?: string | undefined;
  userId?: string | null | undefined;
  stack?: string | undefined;
}
