import { useState } from 'react';
import { useNotify, useRefresh } from 'react-admin';

/**
 * A button's request to the API: `busy` while it runs (the button is disabled, so it is never sent
 * twice), then the success notice and the page read again, or the API's message as an error.
 * `run` never throws, so what follows it (closing a dialog, clearing a file input) always happens.
 */
export function useAdminAction() {
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await action();
      notify(done, { type: 'success' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
