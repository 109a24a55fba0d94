/**
 * The business-card button (spec §2.4 "a camera business-card button appears when
 * isOpenBusinessCard is set", §3 OCR result, §5 camera upload): take or pick a photo, resized
 * here to at most 750×750 JPEG 0.8, sent to /api/camera, and the recognised name, company,
 * title, department, e-mail, phone and address filled into the form (the verified contact
 * stays as it is). Nothing recognised: home.cameraTip. Without JavaScript there is no button
 * (the server renders nothing): the form is filled by hand.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormField } from '../lib/form/schema';
import { cardFill, type CardFields } from '../lib/form/prefill';
import { CARD_JPEG_QUALITY, base64OfDataUrl, fitWithin, isImageType } from '../lib/form/image';
import { TOAST_MS } from '../lib/page/toast';
import { showToast } from '../stores/toast';
import { submit } from './call';
import { fillEmpty, keptValues, saveValues } from './form-dom';
import type { CameraReply, CameraStringKey } from './form-types';
import { browserSession } from './session';
import './form.css';

export interface CardCameraProps {
  formId: string;
  fields: FormField[];
  locked: string[];
  strings: Record<CameraStringKey, string>;
}

/** Draws the picked image within 750×750 and returns its JPEG as base64. */
async function resized(file: File): Promise<string | null> {
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const size = fitWithin(img.naturalWidth, img.naturalHeight);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    ctx.drawImage(img, 0, 0, size.width, size.height);
    return base64OfDataUrl(canvas.toDataURL('image/jpeg', CARD_JPEG_QUALITY));
  } catch {
    return null;
  } finally {
    URL.revokeObjectURL(url);
  }
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
