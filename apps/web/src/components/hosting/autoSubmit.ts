import { type AutoForm, REQUEST_HEADER } from '@atalaya/contract';
import { ApiFailure } from '../../lib/api.ts';

/** Posts the server's form data (webmail, WebFTP, phpMyAdmin) from a throw-away form (docs/behaviour/service-area-dns.md#states). */
export function submitAutoForm(form: AutoForm) {
  const element = document.createElement('form');
  element.method = form.method;
  element.action = form.action;
  element.target = form.target;
  element.style.display = 'none';
  for (const [name, value] of Object.entries(form.inputs)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    element.appendChild(input);
  }
  document.body.appendChild(element);
  element.submit();
  element.remove();
}

/** A file download through the API (docs/behaviour: fails outside 200–299); saved as the server names it, else "Backup". */
export async function downloadFile(source: string) {
  const response = await fetch(source, { credentials: 'same-origin', headers: { [REQUEST_HEADER]: '1' } });
  if (response.status < 200 || response.status > 299) {
    const envelope = await response.json().catch(() => undefined);
    throw new ApiFailure(response.status, envelope?.system);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'Backup';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
