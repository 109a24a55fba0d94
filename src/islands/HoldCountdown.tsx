/**
 * The hold's countdown (spec §9: unpaid orders are kept 30 minutes). The server renders the
 * time left (and a refresh link, for pages without JavaScript); this island counts it down.
 */
import { useEffect, useState, type ReactNode } from 'react';

interface Props {
  /** seconds left when the page was rendered */
  seconds: number;
  /** the text with `{{time}}` where the time goes */
  template: string;
  /** shown once the hold has run out */
  expired: string;
  children?: ReactNode;
}

const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

export default function HoldCountdown({ seconds, template, expired }: Props) {
  const [end] = useState(() => Date.now() + seconds * 1000);
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const tick = () => setLeft(Math.max(0, Math.round((end - Date.now()) / 1000)));
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [end]);
  return <span data-hold-left={left}>{left > 0 ? template.replace('{{time}}', clock(left)) : expired}</span>;
}
