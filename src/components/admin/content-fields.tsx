import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

/**
 * Labelled inputs for the admin editors: a hint (counter, resulting slug…) and an error, both tied
 * to the input for screen readers.
 */
interface ControlProps {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean | undefined;
}

const inputClass = 'mt-1 w-full rounded-lg border border-gray-300 px-3 py-2 aria-invalid:border-red-500';

function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

function Shell({ id, label, error, hint, required, children }: ControlProps & { children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold">
        {label}
        {required && (
          <span aria-hidden="true" className="text-red-700">
            {' '}
            *
          </span>
        )}
      </label>
      {children}
      {hint && (
        <div id={`${id}-hint`} className="mt-1 text-xs text-gray-600">
          {hint}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export function Input({
  id,
  label,
  error,
  hint,
  required,
  ...input
}: ControlProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>) {
  return (
    <Shell id={id} label={label} error={error} hint={hint} required={required}>
      <input
        id={id}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={inputClass}
        {...input}
      />
    </Shell>
  );
}

export function TextArea({
  id,
  label,
  error,
  hint,
  required,
  ...input
}: ControlProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'>) {
  return (
    <Shell id={id} label={label} error={error} hint={hint} required={required}>
      <textarea
        id={id}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={inputClass}
        {...input}
      />
    </Shell>
  );
}

/** An on/off switch; the visible text says the current state, the accessible name says what it switches. */
export function Switch({
  checked,
  label,
  stateText,
  busy,
  onChange,
}: {
  checked: boolean;
  label: string;
  stateText: string;
  busy?: boolean;
  onChange(): void;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={busy}
      onClick={onChange}
      className="inline-flex items-center gap-2 rounded-full py-1 pr-2 text-sm font-medium disabled:opacity-60"
    >
      <span
        aria-hidden="true"
        className={`relative inline-block h-6 w-11 rounded-full transition-colors ${checked ? 'bg-green-600' : 'bg-gray-300'}`}
      >
        <span
          className={`absolute top-0.5 h-5 w-5 rounded-full bg-white shadow transition-[left] ${checked ? 'left-5.5' : 'left-0.5'}`}
        />
      </span>
      <span className={checked ? 'text-green-800' : 'text-gray-700'}>{stateText}</span>
    </button>
  );
}

/** Focuses the first field with an error, so keyboard and screen-reader users land on it. */
export function focusFirstError(prefix: string, order: readonly string[], errors: Partial<Record<string, unknown>>): void {
  const first = order.find((name) => errors[name]);
  if (first) requestAnimationFrame(() => document.getElementById(`${prefix}-${first}`)?.focus());
}
