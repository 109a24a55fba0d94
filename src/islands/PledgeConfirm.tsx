/**
 * The pledge's confirm button (spec §2.5, §9): once hydrated it counts down 5 seconds, then
 * confirms with JSON and reloads the page it guarded. Its server render is the plain form
 * (the server accepts the confirm only 5 s after it served the page, src/lib/seat/pledge.ts).
 */
import { useEffect, useState } from 'react';
import { interpolate } from '../lib/util/interpolate';
import { PLEDGE_WAIT_MS } from '../lib/seat/pledge';
import { countdown } from '../stores/countdown';
import { submit } from './call';
import './seat.css';

export const PLEDGE_STRING_KEYS = ['pledge.confirm', 'pledge.countdown'] as const;

export interface PledgeConfirmProps {
  expoId: string;
  ticket: string;
  back: string;
  notice: string | null;
  strings: Record<(typeof PLEDGE_STRING_KEYS)[number], string>;
}

export default function PledgeConfirm({ expoId, ticket, back, notice, strings }: PledgeConfirmProps) {
  // The server render is the plain form (nothing to wait for); hydrated, 5 seconds from now.
  const [wait] = useState(() => countdown(0, 250));
  const [left, setLeft] = useState(wait.$left.get);
  useEffect(() => wait.$left.listen(setLeft), [wait]);
  const [message, setMessage] = useState(notice);
  useEffect(() => wait.start(PLEDGE_WAIT_MS / 1000), [wait]);
  const waiting = left > 0;

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (waiting) return;
    // Accepted: the page shows what the pledge guarded; refused (too early, expired): why.
    const r = await submit('/api/pledge', { expoId, ticket, back }, null);
    if (r?.code === 200) window.location.reload();
    else if (r) setMessage(r.msg ?? '');
  };

  return (
    <form className="pledge-form" method="post" action="/api/pledge" onSubmit={(e) => void onSubmit(e)}>
      {message && (
        <p className="notice" role="alert">
          {message}
        </p>
      )}
      <input type="hidden" name="expoId" value={expoId} />
      <input type="hidden" name="ticket" value={ticket} />
      <input type="hidden" name="back" value={back} />
      <button className="btn" type="submit" disabled={waiting} aria-live="polite">
        {waiting ? interpolate(strings['pledge.countdown'], { n: left }) : strings['pledge.confirm']}
      </button>
    </form>
  );
}
