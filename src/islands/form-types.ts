/**
 * The contract between the form screen (server) and its islands (FormEnhance, CardCamera):
 * the strings they show, already translated (no i18n runtime in the client), and the replies
 * of /api/register and /api/camera.
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

/** /api/camera's data: the recognised card fields (spec §3 OCR result), empty when nothing was recognised. */
export interface CameraReply {
  fields: Partial<Record<'name' | 'company' | 'companyTitle' | 'dept' | 'email' | 'phone' | 'address', string>>;
}

export type { RegisterOutcome, RegisterReply } from '../../functions/api/register';
