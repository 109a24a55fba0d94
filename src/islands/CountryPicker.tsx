import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { countryEntryText, searchCountries, areaCodeOf, type Country, type CountryOption } from '../lib/form/countries';
import type { Lang } from '../lib/core/languages';
import { Sheet } from './SelectPopup';

export interface CountryPickerProps {
  /** id of the trigger button (the field's <label for> and focus target) */
  id: string;
  /** id of the visible field label */
  labelId: string;
  /** the area code, e.g. `+66` ('' when none is chosen) */
  value: string;
  /** the country list (it arrives as a page prop, not inside this island's JavaScript) */
  countries: readonly Country[];
  lang: Lang;
  strings: {
    title: string;
    search: string;
    placeholder: string;
    close: string;
    /** shown when nothing matches; empty shows nothing */
    none: string;
  };
  invalid: boolean;
  describedBy: string | undefined;
  onChange: (areaCode: string) => void;
}

/**
 * The country/region picker of spec §2.1, enhancing the native <select>: a button showing the
 * chosen entry opens a searchable bottom popup; choosing sets the area code to the entry's first
 * word. A hidden `areaCode` input keeps the form posting it like the select did.
 */
export default function CountryPicker({
  id,
  labelId,
  value,
  countries,
  lang,
  strings,
  invalid,
  describedBy,
  onChange,
}: CountryPickerProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  // The entry itself, not only its code: several entries share a code (+1, +7, +44...).
  const [chosen, setChosen] = useState<string | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const results = useMemo(() => (open ? searchCountries(countries, query, lang) : []), [countries, open, query, lang]);

  const text =
    chosen !== null && areaCodeOf(chosen) === value
      ? chosen
      : (() => {
          const c = countries.find((x) => x.code === value);
          return c ? countryEntryText(c, lang) : '';
        })();

  function choose(option: CountryOption) {
    setChosen(option.text);
    onChange(areaCodeOf(option.text) ?? option.code);
    close();
  }
  function close() {
    setOpen(false);
    setQuery('');
  }
  function onSearchKey(e: KeyboardEvent<HTMLInputElement>) {
    // Enter would submit the lookup form around the popup; it picks the first match instead.
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const first = results[0];
    if (first) choose(first);
  }

  const titleId = `${id}-title`;
  const valueId = `${id}-value`;
  return (
    <>
      <input type="hidden" name="areaCode" value={value} />
      <button
        type="button"
        id={id}
        className="lookup-picker"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-labelledby={`${labelId} ${valueId}`}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onClick={() => setOpen(true)}
      >
        <span id={valueId} className={text ? undefined : 'lookup-placeholder'}>
          {text || strings.placeholder}
        </span>
      </button>
      {open && (
        <Sheet labelledBy={titleId} onClose={close} initialFocus={searchRef} className="sheet-picker">
          <div className="sheet-head">
            <h2 id={titleId}>{strings.title}</h2>
            <button type="button" className="sheet-close" onClick={close}>
              {strings.close}
            </button>
          </div>
          <div className="sheet-search">
            <label htmlFor={`${id}-search`}>{strings.search}</label>
            <input
              ref={searchRef}
              id={`${id}-search`}
              type="search"
              autoComplete="off"
              enterKeyHint="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={onSearchKey}
            />
          </div>
          <ul className="sheet-list">
            {results.map((c) => (
              <li key={c.code + c.en}>
                <button
                  type="button"
                  className="sheet-row"
                  aria-current={c.text === text || undefined}
                  onClick={() => choose(c)}
                >
                  {c.text}
                </button>
              </li>
            ))}
          </ul>
          {/* Always present, so screen readers announce the text when it appears. */}
          <p className="sheet-empty" role="status">
            {results.length === 0 ? strings.none : ''}
          </p>
        </Sheet>
      )}
    </>
  );
}
