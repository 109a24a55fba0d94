import { useStore } from '@nanostores/react';
import { $toast } from '../stores/toast';
import { interpolate } from '../lib/interpolate';

export interface ToastStrings {
  [key: string]: string;
}

/**
 * The one error toast of spec §8 (red; 3 s, 5 s for 500 and offline), announced to screen
 * readers. Islands call showToast(); this renders it. Texts arrive as props (no i18n runtime
 * in the client).
 */
export default function ToastHost({ strings }: { strings: ToastStrings }) {
  const toast = useStore($toast);
  const text = toast ? (toast.key ? interpolate(strings[toast.key] ?? strings['error.generic'] ?? 'error', toast.vars) : toast.text) : '';
  return (
    <div className="toast-region" role="status" aria-live="assertive" aria-atomic="true">
      {toast && (
        <div key={toast.id} className={`toast toast-${toast.tone}`}>
          {text}
        </div>
      )}
    </div>
  );
}
