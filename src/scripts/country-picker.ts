/**
 * The country/region picker of spec §2.1, enhancing the lookup form's native <select>: a button
 * showing the chosen entry opens a searchable bottom sheet; choosing sets the area code to the
 * entry's first word. A hidden `areaCode` input keeps the form posting it like the select did.
 * Plain DOM (issue 24), the same markup the React island drew.
 */
import { areaCodeOf, countryEntryText, searchCountries, type Country, type CountryOption } from '../lib/form/countries';
import type { Lang } from '../lib/page/languages';
import { el } from './lookup-dom';
import { openSheet } from './sheet';

export interface PickerStrings {
  title: string;
  search: string;
  placeholder: string;
  close: string;
  /** shown when nothing matches; empty shows nothing */
  none: string;
}

export interface CountryPicker {
  /** the hidden input and the button, to put where the select was */
  nodes: readonly HTMLElement[];
  /** the button (the field's label points at it; focus target) */
  button: HTMLButtonElement;
  value(): string;
  /** sets the area code (an international number typed in the phone field) */
  set(areaCode: string): void;
}

/** A picker with id `id` (the select's), labelled by `labelId`, starting at `value`; `onChange` after a choice. */
export function countryPicker(o: {
  id: string;
  labelId: string;
  value: string;
  countries: readonly Country[];
  lang: Lang;
  strings: PickerStrings;
  /** where the sheet goes (inside the lookup's own element, like the island's) */
  parent: HTMLElement;
  onChange: (areaCode: string) => void;
}): CountryPicker {
  const { id, countries, lang, strings } = o;
  let value = o.value;
  // The entry itself, not only its code: several entries share a code (+1, +7, +44...).
  let chosen: string | null = null;
  const input = el('input', { type: 'hidden', name: 'areaCode', value });
  const valueId = `${id}-value`;
  const button = el('button', {
    type: 'button',
    id,
    class: 'lookup-picker',
    'aria-haspopup': 'dialog',
    'aria-expanded': 'false',
    'aria-labelledby': `${o.labelId} ${valueId}`,
  });
  const span = el('span', { id: valueId });
  button.append(span);

  const text = (): string => {
    if (chosen !== null && areaCodeOf(chosen) === value) return chosen;
    const c = countries.find((x) => x.code === value);
    return c ? countryEntryText(c, lang) : '';
  };
  const draw = () => {
    input.value = value;
    const t = text();
    span.textContent = t || strings.placeholder;
    if (t) span.removeAttribute('class');
    else span.className = 'lookup-placeholder';
  };
  draw();

  function open() {
    const titleId = `${id}-title`;
    const searchBox = el('div', { class: 'sheet-search' });
    const search = el('input', { id: `${id}-search`, type: 'search', autocomplete: 'off', enterkeyhint: 'search' });
    searchBox.append(el('label', { for: `${id}-search` }, strings.search), search);
    const list = el('ul', { class: 'sheet-list' });
    // Always present, so screen readers announce the text when it appears.
    const empty = el('p', { class: 'sheet-empty', role: 'status' });
    let results: CountryOption[] = [];
    const current = text();
    const choose = (option: CountryOption) => {
      chosen = option.text;
      value = areaCodeOf(option.text) ?? option.code;
      draw();
      sheet.close();
      o.onChange(value);
    };
    const fill = () => {
      results = searchCountries(countries, search.value, lang);
      list.replaceChildren(
        ...results.map((c) => {
          const row = el('button', { type: 'button', class: 'sheet-row', 'aria-current': c.text === current ? 'true' : undefined }, c.text);
          row.addEventListener('click', () => choose(c));
          const li = el('li');
          li.append(row);
          return li;
        }),
      );
      empty.textContent = results.length === 0 ? strings.none : '';
    };
    search.addEventListener('input', fill);
    search.addEventListener('keydown', (e) => {
      // Enter would submit the lookup form around the sheet; it picks the first match instead.
      if (e.key !== 'Enter') return;
      e.preventDefault();
      const first = results[0];
      if (first) choose(first);
    });
    fill();
    button.setAttribute('aria-expanded', 'true');
    const sheet = openSheet({
      parent: o.parent,
      className: 'sheet-picker',
      titleId,
      title: strings.title,
      closeLabel: strings.close,
      body: [searchBox, list, empty],
      initialFocus: search,
      onClose: () => button.setAttribute('aria-expanded', 'false'),
    });
  }
  button.addEventListener('click', open);

  return {
    nodes: [input, button],
    button,
    value: () => value,
    set(areaCode) {
      value = areaCode;
      draw();
    },
  };
}
