import { useLayoutEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $toast, toastText } from '../stores/toast';
import { toastTop } from '../lib/page/toast';

export interface ToastStrings {
  [key: string]: string;
}

/**
 * The one error toast of spec §8 (red; 3 s, 5 s for 500 and offline), announced to screen
 * readers. Islands call showToast(); this renders it (a page without React renders it with
 * src/scripts/toast-host.ts, the same markup). Texts arrive as props (no i18n runtime
 * in the client). It sits below the page header, never over the language menu: the header's height depends on the width and the language, so it is measured when
 * a toast appears. The position is set through the CSSOM (the CSP allows no inline style
 * attribute), and only while a toast shows, so the server's markup has none.
 */
export default function ToastHost({ strings }: { strings: ToastStrings }) {
  const toast = useStore($toast);
  const [top, setTop] = useState<number | null>(null);
  useLayoutEffect(() => {
    if (!toast) return;
    const header = document.querySelector('.shell-top');
    setTop(toastTop(header ? header.getBoundingClientRect().bottom : null));
  }, [toast]);
  const text = toast ? toastText(toast, strings) : '';
  return (
    <div className="toast-region" role="status" aria-live="assertive" aria-atomic="true" style={toast && top !== null ? { top } : undefined}>
      {toast && (
        <div key={toast.id} className={`toast toast-${toast.tone}`}>
          {text}
        </div>
      )}
    </div>
  );
}
