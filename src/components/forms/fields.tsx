import {
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { useTranslation } from '../islands/I18nIsland.tsx';

/**
 * The one set of form fields, for every form of the shop (sign-in, checkout, account, admin): a
 * label, an optional hint and an error, the hint and the error tied to the control with
 * aria-describedby so screen readers read them with it.
 */
interface FieldProps {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean | undefined;
}

const CONTROL = 'mt-1 w-full rounded-lg border border-gray-300 bg-white px-3 py-2 aria-invalid:border-red-500';

/** The ids that describe a control: its hint and its error, when shown. */
export function describedBy(
  id: string,
  hint: unknown,
  error: unknown,
  ...more: (string | false | undefined)[]
): string | undefined {
  const ids = [hint ? `${id}-hint` : '', ...more, error ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

function controlProps({ id, hint, error, required }: FieldProps) {
  return {
    id,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, hint, error),
  } as const;
}

export function Field({ id, label, error, hint, required, children }: FieldProps & { children: ReactNode }) {
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

type Native<T> = Omit<T, 'id' | 'required'>;

/** A field's own props, and the rest for its control. */
function split<P extends FieldProps>({ id, label, error, hint, required, ...control }: P) {
  return [{ id, label, error, hint, required }, control] as const;
}

export function TextField(props: FieldProps & Native<InputHTMLAttributes<HTMLInputElement>>) {
  const [field, input] = split(props);
  return (
    <Field {...field}>
      <input {...controlProps(field)} className={CONTROL} {...input} />
    </Field>
  );
}

export function TextAreaField(props: FieldProps & Native<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  const [field, textarea] = split(props);
  return (
    <Field {...field}>
      <textarea {...controlProps(field)} className={CONTROL} {...textarea} />
    </Field>
  );
}

export function SelectField({ children, ...props }: FieldProps & Native<SelectHTMLAttributes<HTMLSelectElement>>) {
  const [field, select] = split(props);
  return (
    <Field {...field}>
      <select {...controlProps(field)} className={CONTROL} {...select}>
        {children}
      </select>
    </Field>
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField(props: FieldProps & Native<InputHTMLAttributes<HTMLInputElement>>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const [field, input] = split(props);
  return (
    <Field {...field}>
      <div className="relative">
        <input {...controlProps(field)} type={visible ? 'text' : 'password'} className={`${CONTROL} pr-20`} {...input} />
        <button
          type="button"
          onClick={() => setVisible((shown) => !shown)}
          aria-pressed={visible}
          aria-controls={field.id}
          className="absolute inset-y-0 right-0 mt-1 px-3 text-sm font-medium text-brand-700"
        >
          {visible ? t('auth.hidePassword') : t('auth.showPassword')}
        </button>
      </div>
    </Field>
  );
}

/** A file input; `chosen` says what was picked (name and size). */
export function FileField({
  chosen,
  ...props
}: FieldProps & { chosen?: string | undefined } & Native<InputHTMLAttributes<HTMLInputElement>>) {
  const [field, input] = split(props);
  const { id } = field;
  return (
    <Field {...field}>
      <input
        {...controlProps(field)}
        aria-describedby={describedBy(id, field.hint, field.error, chosen && `${id}-chosen`)}
        type="file"
        className="mt-1 block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-700"
        {...input}
      />
      {chosen && (
        <p id={`${id}-chosen`} className="mt-1 text-xs text-gray-700">
          {chosen}
        </p>
      )}
    </Field>
  );
}

/** A checkbox with its label beside it (a consent, an option); its error is tied to it like a field's. */
export function CheckboxField({
  id,
  name,
  label,
  error,
  hint,
  required,
  checked,
  onChange,
}: Omit<FieldProps, 'label'> & {
  /** Sent with the form when it is posted before (or without) its script. */
  name?: string;
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          id={id}
          name={name}
          type="checkbox"
          checked={checked}
          required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          onChange={(event) => onChange(event.target.checked)}
          className="mt-1 h-4 w-4 shrink-0 rounded border-gray-400 text-brand-600"
        />
        <label htmlFor={id} className="text-sm">
          {label}
        </label>
      </div>
      {hint && (
        <div id={`${id}-hint`} className="mt-1 pl-7 text-xs text-gray-600">
          {hint}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 pl-7 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
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
  onChange: () => void;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={busy}
      onClick={onChange}
      className="inline-flex items-center gap-2 rounded-full py-1 pr-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-60"
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

/**
 * A round colour sample. Drawn as SVG fill, a presentation attribute: the site's Content-Security-
 * Policy blocks inline `style` attributes, and a class cannot carry an arbitrary colour.
 */
export function ColorSwatch({ color, size = 32 }: { color: string; size?: number }) {
  return (
    <svg aria-hidden="true" width={size} height={size} viewBox="0 0 32 32" className="block shrink-0">
      <circle cx="16" cy="16" r="15" fill={color} stroke="rgb(0 0 0 / 0.2)" strokeWidth="1" />
    </svg>
  );
}
