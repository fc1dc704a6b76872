import path from 'node:path';
import { z } from 'zod';

const absolute = z.string().refine((p) => path.isAbsolute(p) && !p.includes('\0'), 'an absolute path');

/** `config.drivers.mail` options of the dovecot driver (Dovecot passwd-file + a Postfix virtual map). */
export const dovecotOptionsSchema = z.strictObject({
  /** The passwd-file Dovecot's passdb and userdb read (`driver = passwd-file`). */
  passwdFile: absolute.default('/etc/dovecot/atalaya/passwd'),
  /** Group of the passwd-file (mode 0640): the group Dovecot's auth process runs as, e.g. dovecot's. */
  passwdGroup: z.coerce.number().int().min(0).optional(),
  /** Mailbox homes live at `<mailRoot>/<domain>/<local part>`. */
  mailRoot: absolute.default('/var/vmail'),
  /** The system user and group owning the mail (Dovecot's mail_uid / mail_gid). */
  uid: z.coerce.number().int().min(1).default(5000),
  gid: z.coerce.number().int().min(1).default(5000),
  /** The account's Sieve script (autoresponder, forwarding) in its home: Dovecot's `sieve = file:~/sieve;active=~/<sieveFile>`. */
  sieveFile: z
    .string()
    .regex(/^\.?[a-zA-Z0-9_-]+\.sieve$/)
    .default('.dovecot.sieve'),
  /** OpenDKIM's KeyTable, SigningTable and private keys (`KeyTable file:<dkimDir>/KeyTable`, `SigningTable refile:<dkimDir>/SigningTable`). */
  dkimDir: absolute.default('/etc/opendkim/atalaya'),
  /** Group of the private keys (mode 0640): OpenDKIM's. */
  dkimGroup: z.coerce.number().int().min(0).optional(),
  /**
   * A second OpenDKIM runs with `SignatureAlgorithm ed25519-sha256`, reading `KeyTable.ed25519` and
   * `SigningTable.ed25519` in `dkimDir`: Ed25519 keys sign there, beside the RSA instance.
   */
  dkimSignEd25519: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
  /** Tells OpenDKIM to read its tables again (Debian's unit reloads with SIGUSR1); empty for none. */
  dkimReload: z.array(z.string().min(1)).default(['/bin/systemctl', 'reload', 'opendkim']),
  /** The same for the Ed25519 instance (used only with `dkimSignEd25519`). */
  dkimReloadEd25519: z.array(z.string().min(1)).default(['/bin/systemctl', 'reload', 'opendkim-ed25519']),
  /** Postfix `virtual_alias_maps` source file; the compiled map sits next to it. */
  aliasMap: absolute.default('/etc/postfix/atalaya/virtual'),
  postmap: absolute.default('/usr/sbin/postmap'),
  mapType: z.enum(['hash', 'lmdb', 'btree', 'cdb']).default('hash'),
  /** argon2id cost; Dovecot 2.3 verifies any parameters libsodium accepts. */
  hashMemoryKiB: z.coerce.number().int().min(8192).default(65536),
  hashTime: z.coerce.number().int().min(1).default(3),
  /** Delete a mailbox's mail with the account (off: the folder is kept for the operator). */
  purgeOnDelete: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
});

export type DovecotOptions = z.infer<typeof dovecotOptionsSchema>;

export function dovecotOptions(raw: Record<string, unknown>): DovecotOptions {
  const parsed = dovecotOptionsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`dovecot driver options: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}
