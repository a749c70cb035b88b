import { useRef, useState, useSyncExternalStore, type FormHTMLAttributes, type SubmitEvent } from 'react';
import { useTranslation } from '../islands/I18nIsland.tsx';
import type { z } from '../../lib/zod.ts';
import { fieldErrors, type FieldErrors } from '../../lib/field-errors.ts';
import type { ApiResult } from '../../lib/api-client.ts';
import type { MessageKey } from '../../i18n/i18n.ts';
import type { PostedForm } from '../../lib/posted-form.ts';

type Values = Record<string, string | boolean>;
/** The fields of a form that hold text (inputs, selects); the others are switches. */
type TextKeys<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

/**
 * What a submit action reports: nothing (done), `navigating` (the page is leaving: stay busy), or an
 * API result, whose failure (message and field errors) the form shows, keeping everything typed.
 */
export type SubmitOutcome = void | 'navigating' | ApiResult<unknown>;

interface FormOptions {
  /** Prefix of the fields' ids (`login` → `login-email`). */
  idPrefix?: string;
  /** Shown above the buttons when the browser-side check finds errors (default: none, the fields say it). */
  invalidMessage?: MessageKey;
  /** Called on every failure (e.g. a toast). */
  onFailure?: (message: MessageKey) => void;
  /** The page's answer to this form posted without JavaScript: shown as if the island had sent it. */
  posted?: PostedForm | undefined;
}

/**
 * A form's schema, or a loader of it: `() => import('../../lib/auth.schema.ts').then((s) => s.LoginSchema)`.
 * A loader keeps zod out of the page's first download (public pages have a JavaScript budget); it is
 * fetched when the visitor first types, and awaited on submit.
 */
export type SchemaSource<S> = S | (() => Promise<S>);

/**
 * The one way a form works in this shop: values checked by the same zod schema the server uses,
 * errors shown at their field in the page's language, the first one focused, nothing typed lost on a
 * failure, one submit at a time.
 */
export function useForm<S extends z.ZodType<Record<string, unknown>>, V extends Values = z.input<S> & Values>(
  source: SchemaSource<S>,
  initial: V,
  { idPrefix = 'field', invalidMessage, onFailure, posted }: FormOptions = {},
) {
  const { t } = useTranslation();
  const mine = posted?.form === idPrefix ? posted : undefined;
  const hydrating = useSyncExternalStore(subscribeToNothing, notHydrating, duringHydration);
  const [values, setValues] = useState<V>(() => {
    const rendered = { ...initial, ...pick(initial, mine?.values) };
    // The server renders with the hydrating snapshot too; only the browser has fields to read.
    return hydrating && typeof document !== 'undefined' ? typedBeforeHydration(rendered, idPrefix) : rendered;
  });
  const [errors, setErrors] = useState<FieldErrors>(mine?.errors ?? {});
  const [failure, setFailure] = useState<MessageKey | null>(mine?.failure ?? null);
  const [busy, setBusy] = useState(false);
  const schema = useRef<Promise<S> | null>(null);
  const loadSchema = () => (schema.current ??= typeof source === 'function' ? source() : Promise.resolve(source));

  const idOf = (name: string) => `${idPrefix}-${name}`;
  const set = <K extends keyof V & string>(name: K, value: V[K]) => setValues((current) => ({ ...current, [name]: value }));

  const fail = (message: MessageKey | null, fields: FieldErrors) => {
    setErrors(fields);
    setFailure(message);
    focusFirstError(fields);
    if (message) onFailure?.(message);
  };

  /** Focuses the first field with an error (in the form's order), so keyboard and screen-reader users land on it. */
  const focusFirstError = (fields: FieldErrors) => {
    const first = Object.keys(initial).find((name) => fields[name]) ?? Object.keys(fields)[0];
    if (first) requestAnimationFrame(() => document.getElementById(idOf(first))?.focus());
  };

  /** Valid data, or undefined after showing the errors. */
  const validate = async (): Promise<z.output<S> | undefined> => {
    const parsed = (await loadSchema()).safeParse(values);
    if (parsed.success) {
      setErrors({});
      return parsed.data;
    }
    fail(invalidMessage ?? null, fieldErrors(parsed.error));
    return undefined;
  };

  /** The form's onSubmit: validates, then runs `action` with the parsed data while the form is busy. */
  const handleSubmit = (action: (data: z.output<S>) => Promise<SubmitOutcome>) => (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    setBusy(true);
    const done = (outcome: SubmitOutcome) => {
      if (outcome === 'navigating') return;
      setBusy(false);
      if (outcome && !outcome.ok) fail(outcome.message, outcome.fields);
    };
    void validate()
      .then((data) => (data === undefined ? undefined : action(data)))
      .then(done, () => {
        setBusy(false);
        fail('errors.generic', {});
      });
  };

  const bind = (name: TextKeys<V>) => ({
    id: idOf(name),
    name,
    value: values[name] as string,
    error: errors[name] ? t(errors[name]) : undefined,
    onChange: (event: { target: { value: string } }) => {
      void loadSchema();
      set(name, event.target.value as V[typeof name]);
    },
  });

  return {
    name: idPrefix,
    values,
    setValues,
    set,
    errors,
    setErrors,
    failure,
    setFailure,
    fail,
    busy,
    validate,
    handleSubmit,
    bind,
    idOf,
  };
}

const subscribeToNothing = () => () => {};
const notHydrating = () => false;
const duringHydration = () => true;

/** The posted values of this form's own text fields (a posted page never sets a switch or a stray name). */
function pick<V extends Values>(initial: V, posted: Record<string, string> | undefined): Partial<V> {
  const picked: Record<string, string> = {};
  for (const [name, value] of Object.entries(posted ?? {})) if (typeof initial[name] === 'string') picked[name] = value;
  return picked as Partial<V>;
}

/**
 * What the fields hold when the island hydrates: a person on a slow phone, or the browser's
 * autofill, may have filled them since the server rendered them, and hydrating with the rendered
 * values would empty them (issue 36). Read by the fields' ids, once, in the hydrating render.
 */
function typedBeforeHydration<V extends Values>(rendered: V, idPrefix: string): V {
  const adopted: Record<string, string | boolean> = { ...rendered };
  for (const [name, value] of Object.entries(rendered)) {
    const control = document.getElementById(`${idPrefix}-${name}`);
    if (control instanceof HTMLInputElement && typeof value === 'boolean') adopted[name] = control.checked;
    else if (
      typeof value === 'string' &&
      (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement || control instanceof HTMLSelectElement)
    )
      adopted[name] = control.value;
  }
  return adopted as V;
}

/**
 * Every island's form (searches aside). Posted, and never with the browser's default GET: a form
 * submitted before its script has loaded (Enter pressed while the page hydrates) is sent by the
 * browser itself, and a GET would put what was typed, a password included, in the address bar, the
 * history and the next request's Referer. Pages whose forms matter take that POST through the same
 * schema and endpoint as the island (src/server/form-post.ts); elsewhere it comes back as the same
 * page, nothing stored.
 */
export function Form({
  name,
  children,
  ...props
}: Omit<FormHTMLAttributes<HTMLFormElement>, 'method' | 'action' | 'noValidate' | 'name'> & {
  /** The form's `useForm` name, sent as its hidden `form` field: the page that takes the post knows which form it was. */
  name?: string;
}) {
  return (
    <form method="post" noValidate {...props}>
      {name && <input type="hidden" name="form" value={name} />}
      {children}
    </form>
  );
}

/**
 * A submit button's click once its island runs: the island does the button's work itself. Before
 * that (or without a script) the browser posts the form with the button's name and value, and the
 * page does the same work (decision 34).
 */
export function instead(work: () => unknown) {
  return (event: { preventDefault: () => void }) => {
    event.preventDefault();
    void work();
  };
}

/** A form's failure above its buttons; `values` fills the message's placeholders (a wait, `{{wait}}`). */
export function FormFailure({ message, values }: { message: MessageKey | null; values?: Record<string, string> | undefined }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-800">
      {t(message, values)}
    </div>
  );
}

const BUTTON_TONES = {
  primary: 'bg-brand-600 text-white hover:bg-brand-700',
  secondary: 'border border-brand-600 text-brand-700 hover:bg-brand-50',
  danger: 'bg-red-700 text-white hover:bg-red-800',
} as const;

/** A form's main button: it names what it is doing while the form is busy, and cannot be pressed twice. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  tone = 'primary',
  wide = false,
  disabled = false,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  tone?: keyof typeof BUTTON_TONES;
  wide?: boolean;
  disabled?: boolean;
}) {
  return (
    <button
      type="submit"
      disabled={busy || disabled}
      className={`rounded-lg px-4 py-2 font-semibold disabled:cursor-not-allowed disabled:opacity-60 ${wide ? 'w-full' : ''} ${BUTTON_TONES[tone]}`}
    >
      {busy ? busyLabel : label}
    </button>
  );
}

/** A form's (or a confirmation's) last row: its failure, if any, then Cancel and the main action. */
export function FormActions({
  failure,
  busy,
  label,
  busyLabel,
  cancelLabel,
  onCancel,
  onAction,
  tone = 'primary',
}: {
  failure: MessageKey | null;
  busy: boolean;
  label: string;
  busyLabel: string;
  cancelLabel: string;
  onCancel: () => void;
  /** Absent: the main button submits the form. */
  onAction?: () => void;
  tone?: 'primary' | 'danger';
}) {
  return (
    <>
      <FormFailure message={failure} />
      <div className="flex justify-end gap-3">
        <button
          type="button"
          onClick={onCancel}
          className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
        >
          {cancelLabel}
        </button>
        <button
          type={onAction ? 'button' : 'submit'}
          onClick={onAction}
          disabled={busy}
          className={`rounded-lg px-4 py-2 font-semibold disabled:opacity-60 ${BUTTON_TONES[tone]}`}
        >
          {busy ? busyLabel : label}
        </button>
      </div>
    </>
  );
}
