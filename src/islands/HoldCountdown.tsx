/**
 * The hold's countdown (spec §9: unpaid orders are kept 30 minutes). The server renders the
 * time left (and a refresh link, for pages without JavaScript); this island counts it down.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { countdown } from '../stores/countdown';

interface Props {
  /** seconds left when the page was rendered */
  seconds: number;
  /** the text with `{{time}}` where the time goes */
  template: string;
  /** shown once the hold has run out */
  expired: string;
  children?: ReactNode;
}

/** Minutes and seconds (src/lib/tickets/tickets.ts `clock`, kept here: the shared chunk every page loads stays as it is). */
const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

export default function HoldCountdown({ seconds, template, expired }: Props) {
  const [hold] = useState(() => countdown(seconds));
  const [left, setLeft] = useState(hold.$left.get);
  useEffect(() => hold.$left.listen(setLeft), [hold]);
  return <span data-hold-left={left}>{left > 0 ? template.replace('{{time}}', clock(left)) : expired}</span>;
}
