/**
 * RFC 5734 §4: every EPP data unit travels behind a 32-bit big-endian length that counts its own
 * four bytes too.
 */

/** No registry sends anything near this; a larger header means the stream is not EPP. */
const MAX_FRAME = 16 * 1024 * 1024;

export function frame(xml: string): Buffer {
  const body = Buffer.from(xml, 'utf8');
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length + 4);
  return Buffer.concat([header, body]);
}

/** Collects bytes as they arrive and hands out each complete data unit once. */
export function frameReader(onFrame: (xml: string) => void) {
  let buffered: Buffer = Buffer.alloc(0);
  return (chunk: Buffer) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    while (buffered.length >= 4) {
      const total = buffered.readUInt32BE(0);
      if (total < 5 || total > MAX_FRAME) throw new Error(`epp: a frame header of ${total} bytes`);
      if (buffered.length < total) return;
      const xml = buffered.subarray(4, total).toString('utf8');
      buffered = buffered.subarray(total);
      onFrame(xml);
    }
  };
}
