import {
  CLIENT_ERRORS_ENDPOINT,
  MAX_LOG_DATA_BYTES,
  MAX_LOG_MESSAGE_LENGTH,
  MAX_LOG_STACK_LENGTH,
  MAX_LOG_URL_LENGTH,
  MAX_LOG_USER_AGENT_LENGTH,
  type LogEntry,
  type LogLevel,
} from './admin/log-limits.ts';

/**
 * The client logger from the spec: levels error/warn/info/debug, at most 1,000 entries in memory,
 * the last 100 kept in localStorage, debug off unless switched on. Unlike the spec's logger (which
 * only printed a would-send line), errors are reported to the server (`/api/client-errors`), where
 * the admin's log viewer reads them. Browser-only; safe to import during server rendering.
 */
export const MAX_MEMORY_ENTRIES = 1000;
export const MAX_STORED_ENTRIES = 100;
export const LOGS_STORAGE_KEY = 'app-logs';
export const DEBUG_STORAGE_KEY = 'app-logs-debug';
/** Our own ceiling below the server's limit, so an error loop stops reporting quickly. */
const MAX_REPORTS_PER_MINUTE = 10;

type Listener = (entries: readonly LogEntry[]) => void;

let entries: LogEntry[] | undefined;
let debugEnabled: boolean | undefined;
let userId: string | null = null;
const listeners = new Set<Listener>();
const reportTimes: number[] = [];
let reportingInstalled = false;

const inBrowser = () => typeof window !== 'undefined';

function storage(): Storage | undefined {
  try {
    return inBrowser() ? window.localStorage : undefined;
  } catch {
    return undefined; // storage disabled (privacy settings): memory only
  }
}

function memory(): LogEntry[] {
  if (!entries) {
    entries = [];
    const raw = storage()?.getItem(LOGS_STORAGE_KEY);
    if (raw) {
      try {
        const stored: unknown = JSON.parse(raw);
        if (Array.isArray(stored)) entries = stored.filter(isEntry).slice(-MAX_STORED_ENTRIES);
      } catch {
        storage()?.removeItem(LOGS_STORAGE_KEY);
      }
    }
  }
  return entries;
}

function isEntry(value: unknown): value is LogEntry {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as LogEntry).message === 'string' &&
    typeof (value as LogEntry).timestamp === 'string'
  );
}

function persist(): void {
  try {
    storage()?.setItem(LOGS_STORAGE_KEY, JSON.stringify(memory().slice(-MAX_STORED_ENTRIES)));
  } catch {
    // Quota exceeded: the entries stay in memory.
  }
}

export function isDebugEnabled(): boolean {
  debugEnabled ??= storage()?.getItem(DEBUG_STORAGE_KEY) === 'true';
  return debugEnabled;
}

export function setDebugEnabled(enabled: boolean): void {
  debugEnabled = enabled;
  if (enabled) storage()?.setItem(DEBUG_STORAGE_KEY, 'true');
  else storage()?.removeItem(DEBUG_STORAGE_KEY);
}

/** Who is signed in, recorded on each entry (the server records its own view of the session). */
export function setLogUser(id: string | null): void {
  userId = id;
}

function toData(data: unknown): unknown {
  if (data instanceof Error) return { name: data.name, message: data.message };
  try {
    // Only what survives JSON: entries are stored and exported as JSON.
    return data === undefined ? undefined : (JSON.parse(JSON.stringify(data)) as unknown);
  } catch {
    return String(data);
  }
}

export function log(level: LogLevel, message: string, data?: unknown): LogEntry | undefined {
  if (level === 'debug' && !isDebugEnabled()) return undefined;
  const print =
    level === 'debug' ? console.debug : level === 'info' ? console.info : level === 'warn' ? console.warn : console.error;
  print(`[${level}] ${message}`, ...(data === undefined ? [] : [data]));
  // On the server (rendering an island) nothing is kept: module memory there is shared by every request.
  if (!inBrowser()) return undefined;
  const error = data instanceof Error ? data : undefined;
  const entry: LogEntry = {
    timestamp: new Date().toISOString(),
    level,
    message,
    ...(data === undefined ? {} : { data: toData(data) }),
    userAgent: navigator.userAgent,
    url: location.href,
    userId,
    stack: error?.stack ?? (level === 'error' ? new Error(message).stack : undefined),
  };
  const all = memory();
  all.push(entry);
  if (all.length > MAX_MEMORY_ENTRIES) all.splice(0, all.length - MAX_MEMORY_ENTRIES);
  persist();
  if (level === 'error') void report(entry);
  for (const listener of listeners) listener(all);
  return entry;
}

export const logger = {
  error: (message: string, data?: unknown) => log('error', message, data),
  warn: (message: string, data?: unknown) => log('warn', message, data),
  info: (message: string, data?: unknown) => log('info', message, data),
  debug: (message: string, data?: unknown) => log('debug', message, data),
};

/** This browser's entries, oldest first. */
export function getLogs(): readonly LogEntry[] {
  return memory();
}

export function clearLogs(): void {
  memory().length = 0;
  storage()?.removeItem(LOGS_STORAGE_KEY);
  for (const listener of listeners) listener(memory());
}

export function subscribeToLogs(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Sends an error to the server. Never throws, never logs its own failure (no loops). */
async function report(entry: LogEntry): Promise<void> {
  const now = Date.now();
  while (reportTimes.length && reportTimes[0]! < now - 60_000) reportTimes.shift();
  if (reportTimes.length >= MAX_REPORTS_PER_MINUTE) return;
  reportTimes.push(now);
  const dataFits = entry.data === undefined || JSON.stringify(entry.data).length <= MAX_LOG_DATA_BYTES;
  const body = {
    level: entry.level,
    timestamp: entry.timestamp,
    message: entry.message.slice(0, MAX_LOG_MESSAGE_LENGTH) || 'Error',
    ...(entry.data === undefined ? {} : { data: dataFits ? entry.data : '[data too large]' }),
    stack: entry.stack?.slice(0, MAX_LOG_STACK_LENGTH),
    url: entry.url?.slice(0, MAX_LOG_URL_LENGTH),
    userAgent: entry.userAgent?.slice(0, MAX_LOG_USER_AGENT_LENGTH),
  };
  try {
    await fetch(CLIENT_ERRORS_ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      // The report still goes out when the error is followed by navigation away.
      keepalive: true,
    });
  } catch {
    // Offline or blocked: the entry stays in this browser's log.
  }
}

/**
 * Logs (and so reports) uncaught errors and unhandled promise rejections of the page. Call once per
 * page, as early as possible; calling again does nothing.
 */
export function installErrorReporting(): void {
  if (!inBrowser() || reportingInstalled) return;
  reportingInstalled = true;
  window.addEventListener('error', (event) => {
    // Resource load failures (images) reach capture listeners only; this one sees script errors.
    logger.error(
      event.message || 'Uncaught error',
      event.error instanceof Error ? event.error : { source: event.filename, line: event.lineno, column: event.colno },
    );
  });
  window.addEventListener('unhandledrejection', (event) => {
    const reason: unknown = event.reason;
    logger.error(
      reason instanceof Error ? reason.message : 'Unhandled promise rejection',
      reason instanceof Error ? reason : { reason: String(reason) },
    );
  });
}
