/** `POST /api/camera`: the business-card camera (src/lib/actions/camera.ts), for the CardCamera island. */
import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { upstreamFor } from '../upstream';
import { action, type Ctx } from './action';
import { camera as cameraAction, type CameraPorts } from '../../src/lib/actions/camera';

function cameraPorts(c: Ctx): CameraPorts {
  return { upstream: upstreamFor(c.env), secret: c.env.SESSION_SECRET ?? '' };
}

export const camera = new Hono<{ Bindings: AppEnv }>();
camera.post('/camera', action(cameraAction, { ports: cameraPorts }));
