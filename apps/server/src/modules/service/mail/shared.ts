import type { MailConfig } from '@atalaya/contract';
import type { Runtime } from '../../../runtime.ts';

/** Accounts and aliases share one name space per mail domain. */
export async function nameTaken(ctx: Runtime, itemId: number, name: string) {
  const [account, alias] = await Promise.all([
    ctx.store.selectFrom('mail_account').select('id').where('item_id', '=', itemId).where('name', '=', name).executeTakeFirst(),
    ctx.store.selectFrom('mail_alias').select('id').where('item_id', '=', itemId).where('name', '=', name).executeTakeFirst(),
  ]);
  return Boolean(account || alias);
}

/** Server names of the configuration dialog: the provider's SSL hosts and the domain's own. */
export const mailConfig = (ctx: Runtime, reference: string): MailConfig => ({
  reference,
  imapSsl: `imap.${ctx.config.hosting.mailHost}`,
  smtpSsl: `smtp.${ctx.config.hosting.mailHost}`,
  imap: `imap.${reference}`,
  smtp: `smtp.${reference}`,
});
