/**
 * A bottom sheet on the native modal `<dialog>` (the lookup form's country picker and its
 * selection list): the browser traps focus, makes the page behind inert and gives the dialog
 * role, so no library is needed. Escape, a tap on the backdrop or the close button close it;
 * focus returns to whatever had it before (the button that opened it). Plain DOM (issue 24).
 */
import { el } from './lookup-dom';

export interface Sheet {
  dialog: HTMLDialogElement;
  close(): void;
}

/**
 * Opens a sheet in `parent` with a head (title `titleId`, a close button) and `body`;
 * `onClose` runs once when it closes, whatever closed it.
 */
export function openSheet(o: {
  parent: HTMLElement;
  className: string;
  titleId: string;
  title: string;
  closeLabel: string;
  body: readonly HTMLElement[];
  initialFocus?: HTMLElement | undefined;
  onClose?: (() => void) | undefined;
}): Sheet {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const dialog = el('dialog', { class: `sheet ${o.className}`, 'aria-labelledby': o.titleId, 'aria-modal': 'true', tabindex: '-1' });
  const head = el('div', { class: 'sheet-head' });
  const closeButton = el('button', { type: 'button', class: 'sheet-close' }, o.closeLabel);
  head.append(el('h2', { id: o.titleId }, o.title), closeButton);
  dialog.append(head, ...o.body);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    if (dialog.open) dialog.close();
    dialog.remove();
    opener?.focus();
    o.onClose?.();
  };
  closeButton.addEventListener('click', close);
  dialog.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation();
    close();
  });
  // A second Escape in a row may close the dialog natively (close watchers); follow it.
  dialog.addEventListener('close', close);
  // A click on the backdrop lands on the dialog itself; clicks inside land on its children.
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog) close();
  });
  o.parent.append(dialog);
  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', ''); // very old in-app browsers: still shown, still closable
  (o.initialFocus ?? (typeof dialog.showModal === 'function' ? null : dialog))?.focus();
  return { dialog, close };
}
