/** A mailbox as a mail backend (Dovecot in production) is told: it hashes the password itself. */
export interface Mailbox {
  address: string;
  password: string;
  /** Bytes. */
  quota: number;
  /** The out-of-office reply; none when absent or null. */
  autoresponder?: Autoresponder | null;
  /** Where incoming mail is also (or only) sent; nowhere when absent or null. */
  forward?: Forwarding | null;
}

/** A Sieve `vacation` reply (RFC 5230), answered at most once per sender every `days` days. */
export interface Autoresponder {
  subject: string;
  text: string;
  /** First and last day it answers (YYYY-MM-DD, server time), or null for open-ended. */
  start: string | null;
  end: string | null;
  days: number;
}

export interface Forwarding {
  targets: string[];
  /** Keep a copy in the mailbox as well as sending it on. */
  keepCopy: boolean;
}

/** A domain's DKIM key as the signer is told it (the private key in clear: the signer needs it). */
export interface DkimKeyEntry {
  selector: string;
  algorithm: 'rsa' | 'ed25519';
  privateKeyPem: string;
  /** Sign outgoing mail with it; a new key is first only published, an old one kept until removed. */
  sign: boolean;
}

export interface MailAliasEntry {
  address: string;
  targets: string[];
}

export interface MailDriver {
  /** Creates or updates the mailbox (idempotent). */
  ensureMailbox(mailbox: Mailbox): Promise<void>;
  removeMailbox(address: string): Promise<void>;
  /** Creates or replaces the alias (idempotent). An address of "@domain" is a catch-all. */
  ensureAlias(alias: MailAliasEntry): Promise<void>;
  removeAlias(address: string): Promise<void>;
  /**
   * Sets the domain's DKIM keys: every key listed is known to the signer, the ones with `sign`
   * are used; keys no longer listed are forgotten. An empty list removes the domain.
   */
  ensureDkim(domain: string, keys: DkimKeyEntry[]): Promise<void>;
  /** Bytes used by each mailbox the backend knows of, by address. */
  usage(addresses: string[]): Promise<Record<string, number>>;
}
