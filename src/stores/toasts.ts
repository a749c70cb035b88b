import { atom } from 'nanostores';

/** Toasts (top right), shared by islands and plain scripts. Durations from the spec's later settings. */
export type ToastKind = 'success' | 'error' | 'info';
export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

export const TOAST_DURATION_MS: Record<ToastKind, number> = { success: 3000, error: 5000, info: 4000 };
export const MAX_TOASTS = 20;
const NEXT_PAGE_KEY = 'toast:next-page';

export const $toasts = atom<Toast[]>([]);
let nextId = 1;

export function showToast(kind: ToastKind, message: string): void {
  const toast = { id: nextId++, kind, message };
  $toasts.set([...$toasts.get(), toast].slice(-MAX_TOASTS));
  setTimeout(() => dismissToast(toast.id), TOAST_DURATION_MS[kind]);
}

export function dismissToast(id: number): void {
  $toasts.set($toasts.get().filter((toast) => toast.id !== id));
}

/** A toast to show after the navigation that is about to happen (e.g. "Welcome back!" on the dashboard). */
export function showToastOnNextPage(kind: ToastKind, message: string): void {
  sessionStorage.setItem(NEXT_PAGE_KEY, JSON.stringify({ kind, message }));
}

export function takeNextPageToast(): { kind: ToastKind; message: string } | undefined {
  const raw = sessionStorage.getItem(NEXT_PAGE_KEY);
  sessionStorage.removeItem(NEXT_PAGE_KEY);
  try {
    const parsed = raw ? (JSON.parse(raw) as { kind: ToastKind; message: string }) : undefined;
    return parsed && typeof parsed.message === 'string' && parsed.kind in TOAST_DURATION_MS ? parsed : undefined;
  } catch {
    return undefined;
  }
}
