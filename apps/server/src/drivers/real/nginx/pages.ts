import { escapeHtml } from './syntax.ts';

/** The page of a frame redirection: the target fills the whole window, the host keeps its name. */
export function framePage(target: string, meta: { title: string; description: string; keywords: string }): string {
  const title = escapeHtml(meta.title);
  return `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${escapeHtml(meta.description)}">
<meta name="keywords" content="${escapeHtml(meta.keywords)}">
<style>html,body{margin:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100%;height:100%}</style>
</head>
<body>
<iframe src="${escapeHtml(target)}" title="${title}"></iframe>
</body>
</html>
`;
}

/**
 * The page every path of a suspended service's host answers, with 503 (decision 046). A provider
 * may supply its own HTML with `{{host}}` placeholders; the host name is escaped either way.
 */
export const suspendedPage = (host: string, template?: string) =>
  hostPage(host, template, 'Servicio suspendido · Service suspended · Servei suspès', '<meta name="robots" content="noindex">\n');

/**
 * The parking page of a host. A provider may supply its own HTML with `{{host}}` placeholders;
 * the host name is escaped either way.
 */
export const parkingPage = (host: string, template?: string) =>
  hostPage(host, template, 'Parked domain · Dominio aparcado · Domini aparcat');

/** A one-line page in the three languages under the host's name, or the provider's own template. */
function hostPage(host: string, template: string | undefined, line: string, head = ''): string {
  const name = escapeHtml(host);
  if (template) return template.replaceAll('{{host}}', name);
  return `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${head}<title>${name}</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;color:#333}</style>
</head>
<body>
<main><h1>${name}</h1><p>${line}</p></main>
</body>
</html>
`;
}
