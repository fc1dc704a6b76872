import type { MailConfig } from '@atalaya/contract';
import type { Runtime } from '../../../kernel/runtime.ts';

/** Accounts and aliases share one name space per mail domain. */
export async function nameTaken(runtime: Runtime, itemId: number, name: string) {
  const [account, alias] = await Promise.all([
    runtime.store.selectFrom('mail_account').select('id').where('item_id', '=', itemId).where('name', '=', name).executeTakeFirst(),
    runtime.store.selectFrom('mail_alias').select('id').where('item_id', '=', itemId).where('name', '=', name).executeTakeFirst(),
  ]);
  return Boolean(account || alias);
}

/** Server names of the configuration dialog: the provider's SSL hosts and the domain's own. */
export const mailConfig = (runtime: Runtime, reference: string): MailConfig => ({
  reference,
  imapSsl: `imap.${runtime.config.hosting.mailHost}`,
  smtpSsl: `smtp.${runtime.config.hosting.mailHost}`,
  imap: `imap.${reference}`,
  smtp: `smtp.${reference}`,
});
