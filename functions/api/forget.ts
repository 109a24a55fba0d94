/**
 * `POST /api/forget` ("forget this device", src/lib/actions/forget.ts). Like every post it is
 * refused from another site (403, nothing cleared) and its body is bounded. GET and HEAD answer
 * 405 with `Allow: POST`: forgetting is never a link a crawler or a prefetch could follow.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { action, type Ctx } from './action';
import type { Input } from './input';
import { escapeHtml } from './bad-request';
import { htmlLang } from '../../src/lib/core/languages';
import { forget as forgetAction } from '../../src/lib/actions/forget';
import type { ActionOutcome } from '../../src/lib/actions/outcome';

/** From a page of no expo there is no lookup to say it is done: a small page says so. */
function donePage(c: Ctx, input: Input, o: ActionOutcome): (() => Response) | null {
  if (o.kind !== 'notice' || o.to) return null;
  return () => c.html(donePageHtml(input), 200);
}

function donePageHtml(input: Input): string {
  return `<!doctype html>
<html lang="${htmlLang(input.lang)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(input.t('forget.button'))}</title></head>
<body><main><p role="status">${escapeHtml(input.t('forget.done'))}</p><p><a href="/">${escapeHtml(input.t('notFound.home'))}</a></p></main></body>
</html>
`;
}

function postOnly(c: Ctx): Response {
  return c.text('Forget this device: POST a form to this address.', 405, { allow: 'POST', 'cache-control': 'no-store' });
}

const noPorts = () => null;

export const forget = new Hono<{ Bindings: AppEnv }>();
forget.post('/forget', action(forgetAction, { ports: noPorts, formAnswer: donePage }));
forget.get('/forget', postOnly);
