// "Share as me" (spec §1 personal share; src/components/credential/PersonalShare.astro): with
// JavaScript the button shares the link through the Web Share API where the browser has it, else
// copies it to the clipboard; without JavaScript the link stays shown to copy.
export {};
const section = document.querySelector<HTMLElement>('[data-personal-share]');
const input = section?.querySelector<HTMLInputElement>('[data-share-link]');
const button = section?.querySelector<HTMLButtonElement>('[data-share-button]');
const statusLine = section?.querySelector<HTMLElement>('[data-share-status]');

if (input && button && statusLine) {
  button.hidden = false;
  button.addEventListener('click', () => {
    const url = input.value;
    const done = (text: string) => {
      statusLine.textContent = text;
    };
    if (typeof navigator.share === 'function') {
      navigator.share({ title: button.dataset['title'] ?? '', url }).catch((e: unknown) => {
        // The visitor closing the share sheet is not a failure.
        if (!(e instanceof DOMException && e.name === 'AbortError')) done(button.dataset['failed'] ?? '');
      });
      return;
    }
    const copy = navigator.clipboard?.writeText(url) ?? Promise.reject(new Error('no clipboard'));
    copy.then(
      () => done(button.dataset['copied'] ?? ''),
      () => {
        input.select();
        done(button.dataset['failed'] ?? '');
      },
    );
  });
}
