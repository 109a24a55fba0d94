/** `POST /api/lang`: the language switch (src/lib/actions/lang.ts); a plain form post, so it works without JavaScript. */
import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { action } from './action';
import { lang as langAction } from '../../src/lib/actions/lang';

const noPorts = () => null;

export const lang = new Hono<{ Bindings: AppEnv }>().post('/', action(langAction, { ports: noPorts }));
