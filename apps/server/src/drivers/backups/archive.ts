import { pipeline as chain, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

/** What the download names its top entry with: the folder's or file's name, its mode and time. */
export interface TopEntry {
  name: string;
  mode: number;
  mtime: Date;
}

/**
 * A folder of a snapshot as a .tar.gz: restic's `dump --archive tar` writes every entry under the
 * absolute path it recorded (`var/www/shop.es/img/a.png`); the download names them from the
 * folder down (`img/a.png`), so it never shows the node's paths and unpacks where the customer is.
 */
export async function folderTarGz(tar: Readable, recorded: string, top: TopEntry): Promise<Readable> {
  // Loaded with the first download: most panels never make one.
  const { default: tarStream } = await import('tar-stream');
  const extract = tarStream.extract();
  const pack = tarStream.pack();
  const prefix = `${recorded.replace(/^\/+/, '').replace(/\/+$/, '')}/`;
  const rename = (name: string) => (name.startsWith(prefix) ? `${top.name}/${name.slice(prefix.length)}` : null);
  const feeding = pipeline(tar, extract);
  (async () => {
    pack.entry({ name: `${top.name}/`, type: 'directory', mode: top.mode, mtime: top.mtime });
    for await (const entry of extract) {
      const header = { ...entry.header };
      const name = rename(header.name);
      if (name === null || name === `${top.name}/`) {
        entry.resume();
        continue;
      }
      header.name = name;
      if (header.type === 'link' && header.linkname) header.linkname = rename(header.linkname) ?? header.linkname;
      await new Promise<void>((resolve, reject) => {
        const sink = pack.entry(header, (error) => (error ? reject(error) : resolve()));
        entry.pipe(sink);
      });
    }
    await feeding;
    pack.finalize();
  })().catch((error) => {
    tar.destroy();
    pack.destroy(error);
  });
  return gzipped(pack as unknown as Readable);
}

/** One file of a snapshot as a .tar.gz of one entry (restic's `dump` of a file writes its bytes). */
export async function fileTarGz(content: Readable, top: TopEntry & { size: number }): Promise<Readable> {
  const { default: tarStream } = await import('tar-stream');
  const pack = tarStream.pack();
  const sink = pack.entry({ name: top.name, type: 'file', mode: top.mode, mtime: top.mtime, size: top.size }, (error) => {
    if (error) pack.destroy(error);
    else pack.finalize();
  });
  content.on('error', (error) => pack.destroy(error));
  content.pipe(sink);
  return gzipped(pack as unknown as Readable);
}

/** The pack gzipped; a failure of the pack (restic's, a cut stream) reaches the reader as an error, not a short file. */
const gzipped = (pack: Readable): Readable => chain(pack, createGzip(), () => {});
