/**
 * The pledge's confirm button (spec §2.5, §9): once hydrated it counts down 5 seconds, then
 * confirms with JSON and reloads the page it guarded. Its server render is the plain form
 * (the server accepts the confirm only 5 s after it served the page, src/lib/seat/pledge.ts).
 */
import { useEffect, useState } from 'react';
import { interpolate } from '../lib/util/interpolate';
import { PLEDGE_WAIT_MS } from '../lib/seat/pledge';
import { postJson } from './call';
import type { PledgeReply } from '../lib/actions/replies';
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
  const [left, setLeft] = useState<number | null>(null);
  const [message, setMessage] = useState(notice);
  useEffect(() => {
    const end = Date.now() + PLEDGE_WAIT_MS;
    const tick = () => setLeft(Math.max(0, Math.ceil((end - Date.now()) / 1000)));
    tick();
    const id = setInterval(tick, 250);
    return () => clearInterval(id);
  }, []);
  const waiting = left !== null && left > 0;

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (waiting) return;
    const r = await postJson<PledgeReply['data']>('/api/pledge', { expoId, ticket, back });
    if (!r) return;
    if (r.code === 200) window.location.reload();
    else setMessage(r.msg);
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
        {waiting ? interpolate(strings['pledge.countdown'], { n: left ?? 0 }) : strings['pledge.confirm']}
      </button>
    </form>
  );
}
