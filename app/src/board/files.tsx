import { useEffect, useState } from 'preact/hooks';
import { all, api, ok } from '../api.ts';
import type { Schemas } from '../api.ts';
import { t } from '../i18n.ts';
import { ErrorNote } from '../ui.tsx';
import type { Task } from './live.ts';


/** A task's files: download, and upload through presign → PUT → confirm (the API's upload flow). */
export function Files({ task }: { task: Task }) {
  const [files, setFiles] = useState<Schemas['PlanAttachment'][]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const base = `/v1/plan/tasks/${task.uuid}/attachments/`;
  const load = () => all('/v1/plan/tasks/{task}/attachments/', { path: { task: task.uuid } }).then((list) => setFiles(list.filter((f) => f.status === 'ready')), () => {});
  useEffect(() => void load(), [task.uuid]);

  async function upload(e: Event) {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const presigned = await ok(api.POST('/v1/plan/tasks/{task}/attachments/presign/', { params: { path: { task: task.uuid } }, body: { filename: file.name, content_type: file.type || 'application/octet-stream', size: file.size } }));
      const url = new URL(presigned.upload_url);
      const put = await fetch(url.pathname + url.search, { method: 'PUT', body: file, credentials: 'same-origin', headers: { 'content-type': file.type || 'application/octet-stream' } });
      if (!put.ok) throw new Error((await put.json().catch(() => ({}))).detail ?? `HTTP ${put.status}`);
      await ok(api.POST('/v1/plan/tasks/{task}/attachments/{attachment}/confirm/', { params: { path: { task: task.uuid, attachment: presigned.attachment_uuid } } }));
      input.value = '';
      await load();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="files-title">
      <h3 id="files-title">{t('files.title')}</h3>
      <ul class="plain">
        {files.map((f) => (
          <li key={f.uuid}>
            <a href={`${base}${f.uuid}/content/`} download={f.filename}>{f.filename}</a> <span class="muted">({Math.ceil((f.size ?? 0) / 1024)} KB)</span>
          </li>
        ))}
      </ul>
      <label for="file-upload">{t('files.add')}</label>
      <input id="file-upload" type="file" disabled={busy} onChange={upload} />
      <ErrorNote message={error} />
    </section>
  );
}
