/**
 * The seat lookup form (spec §2.5: name, then the company pick-list with a 500 ms debounce,
 * then the seat). One form with and without JavaScript: the visitor types the name and the
 * company, and the query button posts both to /api/seat/detail (the seat only for both exact,
 * so a common name never lists other people's companies). Once hydrated the company field is a combobox whose pick-list suggests the
 * companies that start with what was typed (from 3 characters), never the companies of the
 * people of a name. Strings come as props (no i18n runtime here).
 */
import { useEffect, useRef, useState } from 'react';
import { COMPANY_DEBOUNCE_MS, shouldFetchCompanies, validateSeatQuery } from '../lib/seat/seats';
import { submit } from './call';
import type { SeatData } from '../lib/actions/replies';
import './seat.css';

export const SEAT_STRING_KEYS = [
  'seat.name',
  'seat.companyLabel',
  'seat.query',
  'seat.companyHint',
  'seat.companyNone',
  'seat.nameRequired',
  'seat.companyRequired',
  'seat.tooLong',
  'seat.selectCompany',
  'app.loading',
] as const;
export type SeatStringKey = (typeof SEAT_STRING_KEYS)[number];

export interface SeatLookupProps {
  hidden: { expoId: string; urlId: string; ty: string; back: string };
  values: { userName: string; companyName: string };
  error: { field: 'userName' | 'companyName'; message: string } | null;
  notice: { tone: 'info' | 'error'; message: string } | null;
  strings: Record<SeatStringKey, string>;
}

export default function SeatLookup(props: SeatLookupProps) {
  const { hidden, strings: s } = props;
  const [js, setJs] = useState(false);
  const [userName, setUserName] = useState(props.values.userName);
  const [companyName, setCompanyName] = useState(props.values.companyName);
  const [error, setError] = useState(props.error);
  const [notice, setNotice] = useState(props.notice);
  const [list, setList] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const asked = useRef(0);
  useEffect(() => {
    // What the visitor typed before the island hydrated is kept (a slow network, spec §1).
    for (const [id, set] of [['seat-userName', setUserName], ['seat-companyName', setCompanyName]] as const) {
      const typed = document.getElementById(id);
      if (typed instanceof HTMLInputElement && typed.value !== '') set(typed.value);
    }
    setJs(true);
    return () => clearTimeout(timer.current);
  }, []);

  const fieldError = (f: 'userName' | 'companyName') => (error?.field === f ? error.message : null);
  const msg = (key: 'seat.nameRequired' | 'seat.companyRequired' | 'seat.tooLong' | 'seat.noSeat') => (key === 'seat.noSeat' ? '' : s[key]);

  /** The pick-list, asked 500 ms after the last keystroke (spec §9), from 3 characters of the company (not the name). */
  const onCompany = (text: string) => {
    setCompanyName(text);
    setError(null);
    clearTimeout(timer.current);
    if (!shouldFetchCompanies(text)) {
      setList(null);
      return;
    }
    timer.current = setTimeout(() => {
      const seq = ++asked.current;
      // Every answer comes back here (no common handling): a later keystroke's answer wins.
      void submit<SeatData>('/api/seat/companies', { ...hidden, keywords: text }, null).then((r) => {
        if (seq !== asked.current || !r) return;
        if (r.code === 200) {
          setNotice(null);
          setList(r.data?.companies ?? []);
          return;
        }
        setList(null);
        setNotice({ tone: 'error', message: r.msg ?? '' });
      });
    }, COMPANY_DEBOUNCE_MS);
  };

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const q = validateSeatQuery({ userName, companyName });
    if (!q.ok) {
      setError({ field: q.field, message: msg(q.key) });
      document.getElementById(`seat-${q.field}`)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // The seat found: on to its result page (submit goes there); a refusal: its message.
      // A seat refusal names its field in `data.field` and says why in `msg`.
      const r = await submit<SeatData>('/api/seat/detail', { ...hidden, ...q.value }, {
        notice: (reply) => setNotice({ tone: 'error', message: reply.msg ?? '' }),
      });
      const field = (r?.data as { field?: unknown } | null | undefined)?.field;
      if (field === 'userName' || field === 'companyName') setError({ field, message: r?.msg ?? '' });
      else if (r) setNotice({ tone: 'error', message: r.msg ?? '' });
    } finally {
      setBusy(false);
    }
  };

  const hiddenInputs = (
    <>
      <input type="hidden" name="expoId" value={hidden.expoId} />
      <input type="hidden" name="urlId" value={hidden.urlId} />
      <input type="hidden" name="ty" value={hidden.ty} />
      <input type="hidden" name="back" value={hidden.back} />
    </>
  );
  const nameField = (
    <div className="seat-field">
      <label htmlFor="seat-userName">{s['seat.name']}</label>
      <input
        id="seat-userName"
        name="userName"
        type="text"
        autoComplete="name"
        maxLength={100}
        value={userName}
        onChange={(e) => {
          setUserName(e.currentTarget.value);
          setError(null);
        }}
        aria-invalid={fieldError('userName') ? true : undefined}
        aria-describedby={fieldError('userName') ? 'seat-userName-error' : undefined}
      />
      {fieldError('userName') && (
        <p className="seat-error" id="seat-userName-error">
          {fieldError('userName')}
        </p>
      )}
    </div>
  );
  const noticeBox = notice && notice.message !== '' && (
    <p className={notice.tone === 'info' ? 'notice info' : 'notice'} role={notice.tone === 'error' ? 'alert' : 'status'}>
      {notice.message}
    </p>
  );

  const open = js && list !== null;
  // One form with and without JavaScript; hydrated, the company field becomes a combobox.
  return (
    <form className="seat-form" method="post" action="/api/seat/detail" noValidate onSubmit={js ? (e) => void onSubmit(e) : undefined}>
      {noticeBox}
      {hiddenInputs}
      {nameField}
      <div className="seat-field seat-combo">
        <label htmlFor="seat-companyName">{s['seat.companyLabel']}</label>
        <input
          id="seat-companyName"
          name="companyName"
          type="text"
          role={js ? 'combobox' : undefined}
          autoComplete="organization"
          maxLength={100}
          aria-expanded={js ? open : undefined}
          aria-controls={js ? 'seat-company-list' : undefined}
          aria-autocomplete={js ? 'list' : undefined}
          aria-describedby={fieldError('companyName') ? 'seat-companyName-error' : 'seat-company-hint'}
          aria-invalid={fieldError('companyName') ? true : undefined}
          value={companyName}
          onChange={(e) => onCompany(e.currentTarget.value)}
        />
        <p className="seat-hint" id="seat-company-hint">
          {s['seat.companyHint']}
        </p>
        {fieldError('companyName') && (
          <p className="seat-error" id="seat-companyName-error">
            {fieldError('companyName')}
          </p>
        )}
        {js && (
          <>
            <ul id="seat-company-list" className="seat-picklist" role="listbox" aria-label={s['seat.selectCompany']} hidden={!open}>
              {(list ?? []).map((name) => (
                <li
                  key={name}
                  role="option"
                  aria-selected={name === companyName}
                  tabIndex={0}
                  onClick={() => {
                    setCompanyName(name);
                    setList(null);
                  }}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' || e.key === ' ') {
                      e.preventDefault();
                      setCompanyName(name);
                      setList(null);
                    }
                  }}
                >
                  {name}
                </li>
              ))}
            </ul>
            <p className="seat-hint" role="status">
              {list !== null && list.length === 0 ? s['seat.companyNone'] : ''}
            </p>
          </>
        )}
      </div>
      <button className="btn seat-submit" type="submit" disabled={busy}>
        {busy ? s['app.loading'] : s['seat.query']}
      </button>
    </form>
  );
}
