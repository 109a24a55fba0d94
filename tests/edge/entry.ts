/**
 * The Worker entry of the workerd tests (vitest.config.ts `main`): functions/worker.ts
 * without Astro, whose virtual modules exist only in an Astro build. It exports what the
 * real entry exports for the runtime: the app, and the Durable Object classes.
 */
import { createApp } from '../../functions/app';

export default createApp();
export { Limiter } from '../../functions/limits/limiter';
