/**
 * The business-card button (spec §2.4 "a camera business-card button appears when
 * isOpenBusinessCard is set", §3 OCR result, §5 camera upload): take or pick a photo, resized
 * to at most 750×750 JPEG 0.8 (upright, no EXIF: src/islands/photo.ts, shared with the health
 * upload), sent to /api/camera, and the recognised name, company,
 * title, department, e-mail, phone and address filled into the form (the verified contact
 * stays as it is). Nothing recognised: home.cameraTip. Without JavaScript there is no button
 * (the server renders nothing): the form is filled by hand.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormField } from '../lib/form/schema';
import { cardFill, type CardFields } from '../lib/form/prefill';
import { CARD_PHOTO, base64OfDataUrl, isImageType } from '../lib/form/image';
import { TOAST_MS } from '../lib/page/toast';
import { showToast } from '../stores/toast';
import { submit } from './call';
import { fillEmpty, keptValues, saveValues } from './form-dom';
import type { CameraReply, CameraStringKey } from './form-types';
import { dataUrlOf, resizePhoto } from './photo';
import { browserSession } from './session';
import './form.css';

export interface CardCameraProps {
  formId: string;
  fields: FormField[];
  locked: string[];
  strings: Record<CameraStringKey, string>;
}

/** The picked photo upright within 750×750, as JPEG base64 without metadata (src/islands/photo.ts); null when it cannot be read. */
async function resized(file: File): Promise<string | null> {
  const jpeg = await resizePhoto(file, CARD_PHOTO);
  return jpeg ? base64OfDataUrl(await dataUrlOf(jpeg).catch(() => '')) : null;
}

export default function CardCamera({ formId, fields, locked, strings }: CardCameraProps) {
  const [mounted, setMounted] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setMounted(true), []);
  if (!mounted) return null;

  const toast = (text: string) => showToast({ key: null, text, durationMs: TOAST_MS });

  const onPick = async (file: File | undefined) => {
    if (!file) return;
    if (!isImageType(file.type)) return toast(strings['home.camera']);
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;
    setBusy(true);
    setStatus(strings['form.cameraReading']);
    try {
      const image = await resized(file);
      if (!image) return toast(strings['home.camera']);
      const fd = new FormData(form);
      const reply = await submit<CameraReply>('/api/camera', { route: fd.get('route'), path: fd.get('path'), image }, {
        notice: (r) => toast(r.msg || strings['error.uploadFailed']),
      });
      if (!reply) return setStatus(null);
      const found: CardFields = reply.data?.fields ?? {};
      const values = cardFill(fields, found, locked);
      // A refusal was shown by submit(); here the card was read, with nothing to fill in or not.
      if (Object.keys(values).length === 0) {
        setStatus(null);
        return toast(strings['home.cameraTip']);
      }
      fillEmpty(form, values, locked, true);
      saveValues(browserSession(), form.dataset['storage'] ?? '', keptValues(form, locked));
      setStatus(strings['form.cameraFilled']);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div className="card-camera">
      <input
        ref={input}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        onChange={(e) => void onPick(e.currentTarget.files?.[0])}
        data-testid="card-file"
      />
      <button type="button" className="btn secondary" disabled={busy} onClick={() => input.current?.click()}>
        {strings['home.cameraButton']}
      </button>
      {status && <p role="status">{status}</p>}
    </div>
  );
}
