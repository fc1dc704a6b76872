import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { crc32, gzipSync } from 'node:zlib';
import tar from 'tar-stream';

/** One entry of a test archive: a file with its text, a folder, or a link (which the installer must refuse). */
export type Entry =
  | { name: string; body: string }
  | { name: string; dir: true }
  | { name: string; symlink: string }
  | { name: string; hardlink: string };

/** A .tar.gz written entry by entry, exactly as given: names are not cleaned, so hostile ones stay hostile. */
export async function tarGz(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c) => void chunks.push(c as Buffer));
  const ended = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const e of entries) {
    if ('body' in e) pack.entry({ name: e.name, mode: 0o644 }, e.body);
    else if ('dir' in e) pack.entry({ name: e.name, type: 'directory', mode: 0o755 });
    else if ('symlink' in e) pack.entry({ name: e.name, type: 'symlink', linkname: e.symlink });
    else pack.entry({ name: e.name, type: 'link', linkname: e.hardlink });
  }
  pack.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/** A stored (uncompressed) zip, its Unix modes in the external attributes so a link is marked as one. */
export function zip(entries: Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const data = Buffer.from('body' in e ? e.body : 'symlink' in e ? e.symlink : '');
    const mode = 'dir' in e ? 0o040755 : 'symlink' in e ? 0o120777 : 0o100644;
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix: the external attributes hold a mode
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Writes an archive and answers the package entry an operator would configure for it. */
export function packageFile(file: string, bytes: Buffer) {
  writeFileSync(file, bytes);
  return { path: file, sha256: createHash('sha256').update(bytes).digest('hex') };
}
