import { useTranslation } from 'react-i18next';
import { Dialog } from '../Dialog.tsx';
import { FormFailure } from '../../forms/use-form.tsx';
import type { MessageKey } from '../../../i18n/i18n.ts';

/**
 * A confirmation for an action that talks to the server: while it runs the button says so, and a
 * failure is shown inside the dialog, which stays open (never a success it did not have).
 */
export function ConfirmAction({
  open,
  title,
  message,
  confirmLabel,
  busyLabel,
  busy,
  failure,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  failure: MessageKey | null;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={title} onClose={onCancel}>
      <p className="text-gray-700">{message}</p>
      <div className="mt-4">
        <FormFailure message={failure} />
      </div>
      <div className="mt-6 flex justify-end gap-3">
        <button
          type="button"
          onClick={onCancel}
          className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
        >
          {t('admin.cancel')}
        </button>
        <button
          type="button"
          onClick={onConfirm}
          disabled={busy}
          className="rounded-lg bg-red-600 px-4 py-2 font-semibold text-white hover:bg-red-700 disabled:opacity-60"
        >
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
