/**
 * The lookup page's three React islands from one module, so the page fetches one file for all
 * three (Astro's island points at this module and names its export): a lookup page's budget is
 * six requests (tests/e2e/budgets.spec.ts). Each stays an island of its own, hydrating on idle.
 *
 * The module is also the client entry of the renderer these three islands use (`lookup-react`,
 * astro.config.mjs): its default export is @astrojs/react's own hydrator. Astro's island fetches
 * the component module and the renderer module; both are this file, so the browser fetches it once
 * instead of this file plus the renderer's one-line re-export of React's chunk.
 */
import LookupForm from './LookupForm';
import SendCodeButton from './SendCodeButton';
import SelectPopup from './SelectPopup';
import { LOOKUP_RENDERER } from './lookup-renderer-name';

export { default } from '@astrojs/react/client.js';
export { LookupForm, SendCodeButton, SelectPopup };

// Astro picks a component's renderer by this tag before asking each renderer's `check`.
for (const island of [LookupForm, SendCodeButton, SelectPopup]) {
  Object.defineProperty(island, Symbol.for('astro:renderer'), { value: LOOKUP_RENDERER });
}
