/**
 * The lookup page's three React islands from one module, so the page fetches one file for all
 * three (Astro's island points at this module and names its export): a lookup page's budget is
 * six requests (tests/e2e/budgets.spec.ts). Each stays an island of its own, hydrating on idle.
 */
export { default as LookupForm } from './LookupForm';
export { default as SendCodeButton } from './SendCodeButton';
export { default as SelectPopup } from './SelectPopup';
