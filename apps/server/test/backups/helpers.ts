import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BackupRepository } from '../../src/drivers/backups/interface.ts';
import { resticEnv } from '../../src/drivers/backups/run.ts';

/** What the backup driver's tests share: a small service tree, its digest, restic run directly. */
export const RESTIC = '/usr/bin/restic';
export const REFERENCE = 'tienda.test';
export const ADDRESS = 'ana@tienda.test';

/** A web folder and a mailbox home with a few small files, under fresh roots. */
export function makeTree(base: string) {
  const webRoot = path.join(base, 'www');
  const mailRoot = path.join(base, 'vmail');
  const site = path.join(webRoot, REFERENCE);
  mkdirSync(path.join(site, 'img/deep'), { recursive: true });
  writeFileSync(path.join(site, 'index.html'), '<h1>tienda</h1>\n');
  writeFileSync(path.join(site, 'img/logo.bin'), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256)));
  writeFileSync(path.join(site, 'img/deep/empty.txt'), '');
  symlinkSync('/etc', path.join(site, 'etc-link'));
  const maildir = path.join(mailRoot, 'tienda.test/ana/Maildir');
  for (const folder of ['', '.Sent'])
    for (const sub of ['cur', 'new', 'tmp']) mkdirSync(path.join(maildir, folder, sub), { recursive: true });
  writeFileSync(path.join(maildir, 'cur/1.m1:2,S'), 'Subject: hola\r\n\r\nprimer mensaje\r\n');
  writeFileSync(path.join(maildir, '.Sent/cur/2.m2:2,S'), 'Subject: enviado\r\n\r\nsegundo\r\n');
  writeFileSync(path.join(maildir, 'subscriptions'), 'Sent\n');
  return { webRoot, mailRoot, site, maildir };
}

/** Every file below a folder by relative path, with its bytes' digest (links by their target). */
export function digestTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(r);
      else if (entry.isSymbolicLink())
        out[r] = `link:${execFileSync('readlink', [path.join(dir, r)])
          .toString()
          .trim()}`;
      else
        out[r] = createHash('sha256')
          .update(readFileSync(path.join(dir, r)))
          .digest('hex');
    }
  };
  walk('');
  return out;
}

export async function collect(stream: Readable) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** restic run directly, as an operator would with the realm's key. */
export function resticJson(repo: BackupRepository, args: string[]) {
  const out = spawnSync(RESTIC, [...args, '--json', '--no-cache'], { env: resticEnv(repo), encoding: 'utf8' });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout);
}
