import { randomBytes, scryptSync } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeAtomic } from '../real/common/files.ts';
import { resolveInside } from '../real/common/names.ts';
import { type ApplicationInstaller, InstallRefused, type InstallRequest } from './interface.ts';

const php = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const html = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
/** Admin passwords are kept as a salted scrypt hash, as a real application would. */
const hashSecret = (secret: string) => {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64')}$${scryptSync(secret, salt, 32).toString('base64')}`;
};

function configFile(request: InstallRequest, secretNames: Set<string>): [string, string] {
  const inputs = Object.entries(request.inputs).map(([k, v]) => [k, secretNames.has(k) ? hashSecret(v) : v] as const);
  if (request.application.type === 'js') {
    return [
      'config.json',
      `${JSON.stringify({ app: request.application.softName, url: request.url, settings: Object.fromEntries(inputs) }, null, 2)}\n`,
    ];
  }
  const lines = [
    '<?php',
    `// ${request.application.softName} ${request.application.version}, installed by the panel.`,
    'return [',
    `  'url' => ${php(request.url)},`,
    ...(request.database
      ? [
          `  'db_host' => ${php(request.database.host)},`,
          `  'db_name' => ${php(request.database.name)},`,
          `  'db_user' => ${php(request.database.user)},`,
          `  'db_password' => ${php(request.database.password)},`,
        ]
      : []),
    ...inputs.map(([k, v]) => `  ${php(k)} => ${php(v)},`),
    '];',
    '',
  ];
  return ['config.php', lines.join('\n')];
}

/**
 * Writes a small but real application tree (index page plus its config filled from the inputs)
 * into the service's web root (`<webRoots>/<reference>/`), never outside it, so an install is observable.
 */
export function localInstaller(webRoots: string): ApplicationInstaller {
  return {
    name: 'local',
    async install(request, progress) {
      const target = resolveInside(resolveInside(path.resolve(webRoots), request.reference), request.directory);
      const index = request.application.type === 'js' ? 'index.html' : 'index.php';
      if (existsSync(path.join(target, index))) throw new InstallRefused('sites.install_not_empty');
      mkdirSync(target, { recursive: true });
      await progress(20);
      const secrets = new Set(request.secretInputs);
      const [configName, configText] = configFile(request, secrets);
      await writeAtomic(path.join(target, configName), configText, 0o640);
      await progress(50);
      // A short pause per step: the SPA's progress bar is part of what the local driver shows.
      await sleep(200);
      const title = request.inputs.site_name || request.inputs.site_title || request.application.softName;
      await writeAtomic(
        path.join(target, index),
        `<!doctype html>\n<html><head><meta charset="utf-8"><title>${html(title)}</title></head>\n<body><h1>${html(title)}</h1><p>${html(request.application.softName)} ${html(request.application.version)}</p></body></html>\n`,
        0o644,
      );
      await progress(80);
      await sleep(200);
      if (readdirSync(target).length === 0) throw new Error('installation left no files');
      await progress(100);
    },
  };
}
