import { type Autoresponder, autoresponderSchema } from '@atalaya/contract';
import type { Selectable } from 'kysely';
import type { Mailbox } from '../../../drivers/mail/interface.ts';
import type { Secrets } from '../../../secrets.ts';
import type { MailAccountTable } from '../tables.ts';

type DeliveryColumns = Pick<Selectable<MailAccountTable>, 'autoresponder' | 'forward_to' | 'forward_keep'>;

/** The stored autoresponder (JSON), or null; a row that does not parse counts as none. */
export const autoresponderOf = (row: DeliveryColumns): Autoresponder | null => {
  if (!row.autoresponder) return null;
  const parsed = autoresponderSchema.safeParse(JSON.parse(row.autoresponder));
  return parsed.success ? parsed.data : null;
};

export const forwardOf = (row: DeliveryColumns) =>
  row.forward_to ? { targets: row.forward_to.split(','), keepCopy: row.forward_keep === 1 } : null;

/** A mail account's row as the mail driver is told it: what the job and reconcile both send. */
export const mailboxOf = (
  row: DeliveryColumns & Pick<Selectable<MailAccountTable>, 'password_secret' | 'quota'>,
  address: string,
  secrets: Secrets,
): Mailbox => ({
  address,
  password: secrets.decrypt(row.password_secret),
  quota: row.quota,
  autoresponder: autoresponderOf(row),
  forward: forwardOf(row),
});
