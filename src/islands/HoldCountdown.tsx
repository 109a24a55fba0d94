/**
 * The hold's countdown (spec §9: unpaid orders are kept 30 minutes). The server renders the
 * time left (and a refresh link, for pages without JavaScript); this island counts it down.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { countdown } from '../stores/countdown';

interface Props {
  /** seconds left when the page was rendered */
  seconds: number;
  /** the text with `{{time}}` where the time goes */
  template: string;
  /** shown once the hold has run out */
  expired: string;
  /** the way to buy again, shown with `expired` */
  again: { href: string; label: string };
  children?: ReactNode;
}

/** Minutes and seconds (src/lib/tickets/tickets.ts `clock`, kept here: the shared chunk every page loads stays as it is). */
const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

/**
 * Once the hold runs out while the page is open, the page shows one state, as the server would:
 * the notice turns from "held for you" (info) to the timed-out message (error) with a way to buy
 * again, and the pay controls stop working (the upstream would refuse them anyway).
 */
function holdRanOut(from: Element | null): void {
  const notice = from?.closest('.notice');
  notice?.classList.remove('info');
  notice?.querySelector(':scope > a')?.remove();
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-pay] button')) {
    b.disabled = true;
    b.setAttribute('aria-disabled', 'true');
  }
}

export default function HoldCountdown({ seconds, template, expired, again }: Props) {
  const [hold] = useState(() => countdown(seconds));
  const [left, setLeft] = useState(hold.$left.get);
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => hold.$left.listen(setLeft), [hold]);
  // The purchase pages register the worker too: once paid, the order's e-tickets are kept for a visit without a network (/sw.js).
  useEffect(() => {
    if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  }, []);
  useEffect(() => {
    if (left === 0) holdRanOut(ref.current);
  }, [left]);
  return (
    <span data-hold-left={left} ref={ref}>
      {left > 0 ? (
        template.replace('{{time}}', clock(left))
      ) : (
        <>
          {expired} <a href={again.href}>{again.label}</a>
        </>
      )}
    </span>
  );
}
