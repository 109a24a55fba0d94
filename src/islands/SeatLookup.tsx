/**
 * The seat lookup form (spec §2.5: name, then the company pick-list with a 500 ms debounce,
 * then the seat). Its server render is the no-JavaScript form: the name posts to
 * /api/seat/name, the companies come back as radio choices, a choice posts to
 * /api/seat/detail. Once hydrated it becomes one form: name, company with the pick-list
 * (asked from 2 characters), and the query button, which goes to the result page.
 * Strings come as props (no i18n runtime here).
 */
import { useEffect, useRef, useState } from 'react';
import { interpolate } from '../lib/interpolate';
import { COMPANY_DEBOUNCE_MS, shouldFetchCompanies, validateSeatName, validateSeatQuery } from '../lib/seats';
import { postJson } from './call';
import type { SeatReply } from './seat-types';
import './seat.css';

export const SEAT_STRING_KEYS = [
  'seat.name',
  'seat.companyLabel',
  'seat.query',
  'seat.showSeat',
  'seat.companyHint',
  'seat.companiesFor',
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
  /** the company choices the name step found (no-JS step 2) */
  companies: string[];
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
    const typed = document.getElementById('seat-userName');
    if (typed instanceof HTMLInputElement && typed.value !== '') setUserName(typed.value);
    setJs(true);
    return () => clearTimeout(timer.current);
  }, []);

  const fieldError = (f: 'userName' | 'companyName') => (error?.field === f ? error.message : null);
  const msg = (key: 'seat.nameRequired' | 'seat.companyRequired' | 'seat.tooLong' | 'seat.noSeat') => (key === 'seat.noSeat' ? '' : s[key]);

  /** The pick-list, asked 500 ms after the last keystroke (spec §9), from 2 characters. */
  const onCompany = (text: string) => {
    setCompanyName(text);
    setError(null);
    clearTimeout(timer.current);
    if (!shouldFetchCompanies(text) || !validateSeatName(userName).ok) {
      setList(null);
      return;
    }
    timer.current = setTimeout(() => {
      const seq = ++asked.current;
      void postJson<NonNullable<SeatReply['data']>>('/api/seat/companies', { ...hidden, userName, keywords: text }).then((r) => {
        if (seq !== asked.current || !r) return;
        if (r.code !== 200) {
          setList(null);
          setNotice({ tone: 'error', message: r.msg ?? '' });
          return;
        }
        setNotice(null);
        setList(r.data?.companies ?? []);
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
      const r = await postJson<NonNullable<SeatReply['data']>>('/api/seat/detail', { ...hidden, ...q.value });
      if (!r) return;
      if (r.code === 200 && r.data?.location) {
        window.location.assign(r.data.location);
        return;
      }
      const field = r.data?.field ?? null;
      if (field) setError({ field, message: r.msg ?? '' });
      else setNotice({ tone: 'error', message: r.msg ?? '' });
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

  if (js) {
    const open = list !== null;
    return (
      <form className="seat-form" method="post" action="/api/seat/detail" noValidate onSubmit={(e) => void onSubmit(e)}>
        {noticeBox}
        {hiddenInputs}
        {nameField}
        <div className="seat-field seat-combo">
          <label htmlFor="seat-companyName">{s['seat.companyLabel']}</label>
          <input
            id="seat-companyName"
            name="companyName"
            type="text"
            role="combobox"
            autoComplete="off"
            maxLength={100}
            aria-expanded={open}
            aria-controls="seat-company-list"
            aria-autocomplete="list"
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
        </div>
        <button className="btn seat-submit" type="submit" disabled={busy}>
          {busy ? s['app.loading'] : s['seat.query']}
        </button>
      </form>
    );
  }

  // Server render: the no-JavaScript steps.
  const { companies } = props;
  return (
    <form className="seat-form" method="post" action={companies.length ? '/api/seat/detail' : '/api/seat/name'} noValidate>
      {noticeBox}
      {hiddenInputs}
      {nameField}
      {companies.length > 0 && (
        <fieldset className="seat-field seat-choices" aria-describedby={fieldError('companyName') ? 'seat-companyName-error' : undefined}>
          <legend>{interpolate(s['seat.companiesFor'], { name: props.values.userName })}</legend>
          {companies.map((name, i) => (
            <label key={name} className="seat-choice">
              <input type="radio" name="companyName" value={name} defaultChecked={name === props.values.companyName} id={`seat-company-${i}`} />
              {name}
            </label>
          ))}
          {fieldError('companyName') && (
            <p className="seat-error" id="seat-companyName-error">
              {fieldError('companyName')}
            </p>
          )}
        </fieldset>
      )}
      {companies.length === 0 && fieldError('companyName') && (
        <p className="seat-error" id="seat-companyName-error">
          {fieldError('companyName')}
        </p>
      )}
      {companies.length > 0 ? (
        <div className="seat-actions">
          <button className="btn seat-submit" type="submit">
            {s['seat.showSeat']}
          </button>
          <button className="btn secondary" type="submit" formAction="/api/seat/name">
            {s['seat.query']}
          </button>
        </div>
      ) : (
        <button className="btn seat-submit" type="submit">
          {s['seat.query']}
        </button>
      )}
    </form>
  );
}
