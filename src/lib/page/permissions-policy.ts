/**
 * The `Permissions-Policy` header: every powerful browser feature is denied to the
 * page and to any frame in it, except the camera on the pages that render the business-card
 * camera island (src/islands/CardCamera.tsx, rendered by FormScreen.astro when `camera`).
 *
 * The island takes the photo with `<input type="file" accept="image/*" capture="environment">`,
 * not `getUserMedia`: the browser hands the capture to the system camera or file picker, which
 * the `camera` feature does not govern in today's browsers. `camera=(self)` on those pages costs
 * nothing, keeps them working in a browser that does gate the capture attribute, and is what a
 * later in-page viewfinder (getUserMedia) would need; every other page denies it.
 *
 * The staff gate page (`/gate/{eid}`, the scanner island src/islands/GateScanner.tsx) reads QR codes
 * from a live camera (`getUserMedia`), which the `camera` feature does govern, and keeps the screen
 * on while it runs (`screen-wake-lock`): its screen's declaration allows those two to this origin (src/lib/screens/gate.ts `allow`),
 * and nothing else.
 *
 * Only features Chromium recognises are listed: an unknown name makes it log "Error with
 * Permissions-Policy header: Unrecognized feature" on every page (Chromium 150 does not know
 * `bluetooth`, for one). tests/e2e/page-headers.spec.ts fails on that message.
 */

/** Features denied everywhere (`name=()`), camera included unless the page allows it. */
export const DENIED_FEATURES = [
  'accelerometer',
  'browsing-topics',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
] as const;

export type Feature = (typeof DENIED_FEATURES)[number];

/**
 * The header value: every feature denied, those in `allowSelf` allowed to this origin only.
 * @example permissionsPolicy().startsWith('accelerometer=(), ') // true
 * @example permissionsPolicy({ allowSelf: ['camera'] }).includes('camera=(self)') // true
 */
export function permissionsPolicy(options: { allowSelf?: readonly Feature[] } = {}): string {
  const allowed = new Set<Feature>(options.allowSelf ?? []);
  return DENIED_FEATURES.map((f) => `${f}=${allowed.has(f) ? '(self)' : '()'}`).join(', ');
}

/** The default of every response. */
export const DEFAULT_PERMISSIONS_POLICY = permissionsPolicy();

/** The policy of a page that renders the business-card camera island. */
export const CAMERA_PERMISSIONS_POLICY = permissionsPolicy({ allowSelf: ['camera'] });
