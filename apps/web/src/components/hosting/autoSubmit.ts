import type { AutoForm } from '@atalaya/contract';
import type { DownloadedFile } from '../../lib/api.ts';

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

/** Hands a file the API client downloaded (lib/api.ts's download) to the browser, under its name. */
export function saveFile({ name, blob }: DownloadedFile) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
