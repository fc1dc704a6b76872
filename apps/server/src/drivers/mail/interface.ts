/** A mailbox as a mail backend (Dovecot in production) is told: it hashes the password itself. */
export interface Mailbox {
  address: string;
  password: string;
  /** Bytes. */
  quota: number;
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
  /** Bytes used by each mailbox the backend knows of, by address. */
  usage(addresses: string[]): Promise<Record<string, number>>;
}
