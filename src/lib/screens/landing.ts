/**
 * The fixed landings of spec §2.3/§2.4 (`/CMEF` registration, the Asia fashion show): no config,
 * no upstream call; src/components/screens/LandingScreen.astro renders src/lib/expo/home.ts's landing.
 * Pure.
 */
import { defineScreen } from './define';

export interface LandingData {
  kind: 'landing';
  which: 'register' | 'fashion';
}

/** A landing: public. */
export const landingScreen = defineScreen({
  name: 'landing',
  components: { landing: 'LandingScreen' },
  load: (m): LandingData => ({ kind: 'landing', which: m.which }),
  personal: false,
  missingIsNotFound: false,
  prepare: {},
});
