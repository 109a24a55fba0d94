import { useEffect, useRef, useState, type MouseEvent, type ReactNode, type RefObject } from 'react';
import { useStore } from '@nanostores/react';
import type { SelectPopupProps } from './lookup-types';
import { $selectRows } from '../stores/lookup';
import { isModifiedClick } from './session';

export interface SheetProps {
  /** id of the element naming the dialog (its heading) */
  labelledBy: string;
  onClose: () => void;
  /** where focus goes when the sheet opens (else the browser's choice: the first focusable element) */
  initialFocus?: RefObject<HTMLElement | null> | undefined;
  className?: string | undefined;
  children: ReactNode;
}

/**
 * A bottom sheet on the native modal `<dialog>`: the browser traps focus, makes the page behind
 * inert and gives the dialog role, so no library is needed. Mounted = open; Escape, a tap on
 * the backdrop or the close button call `onClose`, and the parent unmounts it. Focus returns to
 * whatever had it before (the button that opened it).
 */
export function Sheet({ labelledBy, onClose, initialFocus, className, children }: SheetProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', ''); // very old in-app browsers: still shown, still closable
    }
    (initialFocus?.current ?? (typeof dialog.showModal === 'function' ? null : dialog))?.focus();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
    // Once per opening: the sheet is mounted only while open.
  }, []);
  return (
    <dialog
      ref={ref}
      className={className ? `sheet ${className}` : 'sheet'}
      aria-labelledby={labelledBy}
      aria-modal="true"
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault(); // no native cancel: React state stays the one source of truth
        e.stopPropagation();
        onClose();
      }}
      // A second Escape in a row may close the dialog natively (close watchers); follow it.
      onClose={onClose}
      // A click on the backdrop lands on the dialog itself; clicks inside land on its children.
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      {children}
    </dialog>
  );
}

/**
 * The selection popup island (spec §2.1, §9): when several registrations match, a bottom popup
 * at 50% of the viewport's height, one row per registration with the registrant's name and
 * label, each a link to its credential page. A view of $selectRows (src/stores/lookup.ts), which
 * the form island fills; closed (nothing drawn) on the server and until then. Choosing one
 * replaces the history entry (spec §2.1), so Back returns to where the visitor came from.
 */
export default function SelectPopup({ title, closeLabel }: SelectPopupProps) {
  const rows = useStore($selectRows);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated || !rows) return null;
  const onClose = () => $selectRows.set(null);
  function go(e: MouseEvent<HTMLAnchorElement>, href: string) {
    if (isModifiedClick(e)) return;
    e.preventDefault();
    window.location.replace(href);
  }
  return (
    <Sheet labelledBy="lookup-select-title" onClose={onClose} className="sheet-half">
      <div className="sheet-head">
        <h2 id="lookup-select-title">{title}</h2>
        <button type="button" className="sheet-close" onClick={onClose}>
          {closeLabel}
        </button>
      </div>
      <ul className="sheet-list">
        {rows.map((row, i) => (
          <li key={`${i}:${row.href}`}>
            <a className="sheet-row" href={row.href} onClick={(e) => go(e, row.href)}>
              <span className="sheet-row-name">{row.name}</span>
              <span className="sheet-row-label">{row.label}</span>
            </a>
          </li>
        ))}
      </ul>
    </Sheet>
  );
}
