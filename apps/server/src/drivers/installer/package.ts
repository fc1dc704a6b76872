import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InstallRefused, type PackageSource } from './interface.ts';

/**
 * Copies the package from the operator's mirror (http/https) or a local file into `into`, hashing
 * the bytes as they pass: what is unpacked is the very copy whose SHA-256 was checked, so a file
 * changed on the mirror between the check and the unpacking cannot slip through.
 */
export async function fetchPackage(
  source: PackageSource,
  into: string,
  maxBytes: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const stop = signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(new InstallRefused('sites.package_too_large', `package over ${maxBytes} bytes`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  let body: Readable;
  if (/^https?:\/\//.test(source.location)) {
    const response = await fetch(source.location, { signal: stop, redirect: 'follow' });
    // A mirror that is down may come back: thrown as an error, the job is retried.
    if (!response.ok || !response.body) throw new Error(`package download ${source.location}: HTTP ${response.status}`);
    body = Readable.fromWeb(response.body as never);
  } else {
    if (!path.isAbsolute(source.location)) throw new Error(`package path ${source.location} is not absolute`);
    body = createReadStream(source.location);
  }
  await pipeline(body, meter, createWriteStream(into, { mode: 0o600 }), { signal: stop });
  if (hash.digest('hex') !== source.sha256.toLowerCase()) throw new InstallRefused('sites.package_checksum');
}
