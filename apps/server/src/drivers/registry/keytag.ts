/**
 * RFC 4034 Appendix B: the key tag of a DNSKEY, a checksum over its RDATA (flags, protocol,
 * algorithm, public key). Used to show the key tag of key data the way a DS record carries it.
 */
export function keyTag(flags: number, protocol: number, algorithm: number, publicKeyBase64: string): number {
  const key = Buffer.from(publicKeyBase64, 'base64');
  const rdata = Buffer.concat([Buffer.from([flags >> 8, flags & 0xff, protocol, algorithm]), key]);
  let sum = 0;
  for (let i = 0; i < rdata.length; i++) sum += i % 2 === 0 ? rdata[i] << 8 : rdata[i];
  sum += (sum >> 16) & 0xffff;
  return sum & 0xffff;
}
