import { useState } from 'react';
import type { ApiFailure, ApiResult } from '../../lib/api-client.ts';
import type { MessageKey } from '../../i18n/i18n.ts';

/**
 * The one way an irreversible action is confirmed: `ask(target)` opens the ConfirmDialog, `confirm`
 * runs the action once; success closes the dialog, a failure stays in it with its message (unless
 * `closesOn` says the page shows that failure itself).
 */
export function useConfirm<Target>(
  action: (target: Target) => Promise<ApiResult<unknown>>,
  { closesOn = () => false }: { closesOn?: (failure: ApiFailure) => boolean } = {},
) {
  const [target, setTarget] = useState<Target | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<MessageKey | null>(null);

  const cancel = () => setTarget(null);
  const confirm = () => {
    if (target === null || busy) return;
    setBusy(true);
    setFailure(null);
    void action(target).then((result) => {
      setBusy(false);
      if (result.ok || closesOn(result)) setTarget(null);
      else setFailure(result.message);
    });
  };
  return {
    target,
    ask: (next: Target) => {
      setFailure(null);
      setTarget(next);
    },
    /** Everything ConfirmDialog needs but its texts: `<ConfirmDialog {...remove.dialog} title=… />`. */
    dialog: { open: target !== null, busy, failure, onConfirm: confirm, onCancel: cancel },
  };
}
