import { existsSync } from 'node:fs';
import { appendFile, chown, mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A mail restore as a copy (Maildir++, Dovecot's `maildir:~/Maildir`): the restored messages go
 * into a new folder `.<name>` of the live Maildir (its INBOX there, each of its folders `.X` as
 * `.<name>.X`), subscribed, so an IMAP client shows it at its next LIST without a restart. Only
 * messages move (cur/ and new/): Dovecot indexes the folder afresh and gives it its own UIDs.
 */
export async function copyIntoMaildir(restored: string, liveMaildir: string, staged: string, name: string) {
  const owner = await stat(liveMaildir).catch(() => stat(path.dirname(liveMaildir)));
  const folders: { from: string; to: string }[] = [];
  if (isMaildirFolder(restored)) folders.push({ from: restored, to: name });
  for (const entry of existsSync(restored) ? await readdir(restored, { withFileTypes: true }) : []) {
    if (entry.isDirectory() && entry.name.startsWith('.') && isMaildirFolder(path.join(restored, entry.name))) {
      folders.push({ from: path.join(restored, entry.name), to: `${name}${entry.name}` });
    }
  }
  // Each folder is built beside the live Maildir (same filesystem) and renamed in whole.
  await mkdir(staged, { recursive: true });
  const made: string[] = [];
  for (const folder of folders) {
    const dir = path.join(staged, `.${folder.to}`);
    for (const sub of ['cur', 'new', 'tmp']) await mkdir(path.join(dir, sub), { recursive: true });
    await writeFile(path.join(dir, 'maildirfolder'), '');
    for (const sub of ['cur', 'new']) {
      const from = path.join(folder.from, sub);
      for (const message of existsSync(from) ? await readdir(from) : [])
        await rename(path.join(from, message), path.join(dir, sub, message));
    }
    for (const p of [dir, ...['cur', 'new', 'tmp', 'maildirfolder'].map((s) => path.join(dir, s))]) await chown(p, owner.uid, owner.gid);
    made.push(folder.to);
  }
  await mkdir(liveMaildir, { recursive: true });
  for (const folder of made) {
    const target = path.join(liveMaildir, `.${folder}`);
    if (existsSync(target)) throw new Error(`the mail folder ${folder} exists already`);
    await rename(path.join(staged, `.${folder}`), target);
  }
  await subscribe(liveMaildir, made, owner);
  return made;
}

const isMaildirFolder = (dir: string) => existsSync(path.join(dir, 'cur')) || existsSync(path.join(dir, 'new'));

/**
 * Adds the folders to the Maildir's `subscriptions`: one name a line, Maildir++'s `.` between
 * levels; Dovecot's version-2 file (first line `V\t2`) separates levels with a tab instead.
 */
async function subscribe(maildir: string, folders: string[], owner: { uid: number; gid: number }) {
  const file = path.join(maildir, 'subscriptions');
  const current = await readFile(file, 'utf8').catch(() => '');
  const v2 = current.startsWith('V\t2');
  const names = folders.map((f) => (v2 ? f.replaceAll('.', '\t') : f));
  const have = new Set(current.split('\n'));
  const add = names.filter((n) => !have.has(n));
  if (add.length === 0) return;
  const lead = current === '' || current.endsWith('\n') ? '' : '\n';
  await appendFile(file, `${lead}${add.join('\n')}\n`);
  await chown(file, owner.uid, owner.gid);
}
