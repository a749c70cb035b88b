import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { fieldErrors, type FieldErrors } from '../../lib/validation.ts';
import type { MessageKey } from '../../i18n/i18n.ts';

/**
 * Form state checked by the same zod schema the server uses. Errors are shown at their field in
 * the page's language; nothing typed is lost on an error.
 */
export function useForm<S extends z.ZodType<Record<string, unknown>>>(schema: S, initial: z.input<S> & Record<string, string>) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<MessageKey | null>(null);
  const [busy, setBusy] = useState(false);

  /** Valid data, or undefined after showing the errors. */
  const validate = (): z.output<S> | undefined => {
    setFailure(null);
    const parsed = schema.safeParse(values);
    if (parsed.success) {
      setErrors({});
      return parsed.data;
    }
    setErrors(fieldErrors(parsed.error));
    return undefined;
  };

  const bind = (name: keyof typeof initial & string, idPrefix = 'field') => ({
    id: `${idPrefix}-${name}`,
    name,
    value: values[name] ?? '',
    error: errors[name] ? t(errors[name]) : undefined,
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  return { values, setValues, errors, setErrors, failure, setFailure, busy, setBusy, validate, bind };
}

export function FormFailure({ message }: { message: MessageKey | null }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-800">
      {t(message)}
    </div>
  );
}
