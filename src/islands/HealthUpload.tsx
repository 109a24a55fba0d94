/**
 * The health upload form on the credential page. Its server render is the plain
 * multipart form (`kind`, `file`, posted to /api/health): without JavaScript the picked file
 * itself is posted, and the server's limits apply (5 MB; stored without its metadata). Once
 * hydrated, a picked photo is resized in the browser by the helper the business-card camera
 * uses (src/islands/photo.ts: upright, within 1200×1200, JPEG 0.85, no EXIF) and sent with JSON
 * back; the page then reloads to list it. A photo the browser cannot decode goes as it is when
 * the server could take it, else `health.tooLarge` is said before anything is sent.
 */
import { useEffect, useState } from 'react';
import { isImageType } from '../lib/form/image';
import { HEALTH_PHOTO, healthUploadOf } from '../lib/seat/health';
import type { HealthReply } from '../lib/actions/replies';
import './seat.css';
import { ANCHORS } from '../lib/page/anchors';
import { resizePhoto } from './photo';

export const HEALTH_STRING_KEYS = [
  'health.kind',
  'health.kind1',
  'health.kind2',
  'health.kind3',
  'health.file',
  'health.submit',
  'health.fileRequired',
  'health.notImage',
  'health.tooLarge',
  'upload.uploading',
  'error.uploadFailed',
] as const;

export interface HealthUploadProps {
  hidden: { expoId: string; urlId: string; euCode: string; back: string };
  notice: { tone: 'info' | 'error'; message: string } | null;
  strings: Record<(typeof HEALTH_STRING_KEYS)[number], string>;
}

export default function HealthUpload({ hidden, notice, strings: s }: HealthUploadProps) {
  const [message, setMessage] = useState(notice);
  const [busy, setBusy] = useState(false);
  const [js, setJs] = useState(false);
  useEffect(() => setJs(true), []);

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const file = data.get('file');
    if (!(file instanceof File) || file.size === 0) return setMessage({ tone: 'error', message: s['health.fileRequired'] });
    if (!isImageType(file.type)) return setMessage({ tone: 'error', message: s['health.notImage'] });
    setBusy(true);
    try {
      const upload = healthUploadOf(await resizePhoto(file, HEALTH_PHOTO), file);
      if (!upload.ok) return setMessage({ tone: 'error', message: s[upload.key] });
      if (upload.resized) data.set('file', upload.file, 'health.jpg');
      const res = await fetch('/api/health', { method: 'POST', headers: { accept: 'application/json' }, body: data });
      const reply = (await res.json().catch(() => null)) as HealthReply | null;
      if (reply?.code === 200) {
        // the page again (its list of uploads), scrolled back here, with the server's notice
        window.location.hash = ANCHORS.health;
        window.location.reload();
        return;
      }
      setMessage({ tone: 'error', message: reply?.msg || s['error.uploadFailed'] });
    } catch {
      setMessage({ tone: 'error', message: s['error.uploadFailed'] });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="seat-form" method="post" action="/api/health" encType="multipart/form-data" onSubmit={js ? (e) => void onSubmit(e) : undefined}>
      {message && (
        <p className={message.tone === 'info' ? 'notice info' : 'notice'} role={message.tone === 'info' ? 'status' : 'alert'}>
          {message.message}
        </p>
      )}
      <input type="hidden" name="expoId" value={hidden.expoId} />
      <input type="hidden" name="urlId" value={hidden.urlId} />
      <input type="hidden" name="euCode" value={hidden.euCode} />
      <input type="hidden" name="back" value={hidden.back} />
      <div className="seat-field">
        <label htmlFor="health-kind">{s['health.kind']}</label>
        <select id="health-kind" name="kind" defaultValue="1">
          <option value="1">{s['health.kind1']}</option>
          <option value="2">{s['health.kind2']}</option>
          <option value="3">{s['health.kind3']}</option>
        </select>
      </div>
      <div className="seat-field">
        <label htmlFor="health-file">{s['health.file']}</label>
        <input id="health-file" name="file" type="file" accept="image/jpeg,image/png" required />
      </div>
      <button className="btn" type="submit" disabled={busy}>
        {busy ? s['upload.uploading'] : s['health.submit']}
      </button>
    </form>
  );
}
