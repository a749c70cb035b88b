import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from '../islands/I18nIsland.tsx';
import { FormActions } from '../forms/use-form.tsx';
import type { MessageKey } from '../../i18n/i18n.ts';

/** A modal dialog on the native <dialog>: focus is trapped, Escape closes, the page behind is inert. */
export function Dialog({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // Unique per dialog: a confirmation opened over another dialog must be named by its own title.
  const titleId = useId();
  const { t } = useTranslation();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      aria-labelledby={titleId}
      className="m-auto w-[min(48rem,calc(100vw-2rem))] rounded-2xl p-0 shadow-2xl backdrop:bg-black/40"
    >
      {open && (
        <div className="max-h-[85vh] overflow-y-auto p-6">
          <div className="flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-xl font-bold">
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              aria-label={t('admin.close')}
              className="rounded px-2 text-2xl leading-none hover:bg-gray-100"
            >
              ×
            </button>
          </div>
          <div className="mt-4">{children}</div>
        </div>
      )}
    </dialog>
  );
}

/**
 * The one confirmation before an irreversible action (delete, refund, promote). While the action
 * runs the button says so; a failure shows inside the dialog, which stays open: never a success it
 * did not have.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  busyLabel,
  busy = false,
  failure = null,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  busyLabel?: string;
  busy?: boolean;
  failure?: MessageKey | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={title} onClose={onCancel}>
      <p className="text-gray-700">{message}</p>
      <div className="mt-4 space-y-4">
        <FormActions
          failure={failure}
          busy={busy}
          label={confirmLabel}
          busyLabel={busyLabel ?? confirmLabel}
          cancelLabel={t('admin.cancel')}
          onCancel={onCancel}
          onAction={onConfirm}
          tone="danger"
        />
      </div>
    </Dialog>
  );
}

/** The confirmation before a delete: "Delete permanently?", what goes, "cannot be undone". */
export function DeleteDialog(props: Omit<Parameters<typeof ConfirmDialog>[0], 'title' | 'confirmLabel' | 'busyLabel'>) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      {...props}
      title={t('admin.confirmDeleteTitle')}
      confirmLabel={t('admin.delete')}
      busyLabel={t('admin.deleting')}
    />
  );
}
