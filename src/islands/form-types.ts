/**
 * The contract between the form screen (server) and its scripts (form-enhance.ts, the CardCamera island):
 * the strings they show, already translated (no i18n runtime in the client). The replies of
 * /api/register and /api/camera are the actions' own (src/lib/actions).
 */
export const FORM_STRING_KEYS = [
  'form.supplement',
  'form.otherOptions',
  'form.privacy',
  'form.idNumberIllegal',
  'form.phoneIncorrect',
  'search.selectCountry',
  'search.emailError',
  'form.dateFormat',
  'form.updatePrompt',
  'form.update',
  'form.noUpdate',
  'form.submit',
  'form.submitting',
  'error.generic',
] as const;
export type FormStringKey = (typeof FORM_STRING_KEYS)[number];

export const CAMERA_STRING_KEYS = [
  'home.cameraButton',
  'home.camera',
  'home.cameraTip',
  'form.cameraReading',
  'form.cameraFilled',
  'error.uploadFailed',
] as const;
export type CameraStringKey = (typeof CAMERA_STRING_KEYS)[number];

export type { RegisterOutcome, RegisterReply } from '../lib/actions/register';
export type { CameraReply } from '../lib/actions/camera';
