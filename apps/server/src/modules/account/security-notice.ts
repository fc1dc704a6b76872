import { translate } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { now } from '../../store/db.ts';
import type { Mailer } from './mailer.ts';
import { accountHolder, noticeDate } from './signin-notice.ts';

/** The changes to how an account is protected that its holder is told of by mail. */
export type SecurityEvent = 'factor_added' | 'factor_removed' | 'recovery_codes' | 'token_created' | 'password_changed';

/**
 * Mails the user, in their language, that one of these changes was made on their account and from
 * which address: whoever made it from a stolen session cannot keep it from the holder's inbox.
 * Nothing is sent to a user without an address.
 */
export async function mailSecurityNotice(app: FastifyInstance, mailer: Mailer, event: SecurityEvent, userId: number, ip: string) {
  const holder = await accountHolder(app.runtime.store, userId);
  if (!holder) return false;
  const what = translate(holder.language, `account.security_${event}`);
  const params = { what, account: holder.account, name: holder.name, date: noticeDate(now()), ip };
  await mailer({
    subject: translate(holder.language, 'account.security_subject', params),
    text: `${translate(holder.language, 'account.security_text', params)}\n`,
    replyTo: app.runtime.config.company.email,
    to: holder.email,
  });
  return true;
}

/**
 * Sends the notice of a change already made: a mail server that is down must not undo it nor
 * fail the call, so the notice is lost and the failure logged.
 */
export async function tellHolder(app: FastifyInstance, request: FastifyRequest, mailer: Mailer, event: SecurityEvent) {
  try {
    await mailSecurityNotice(app, mailer, event, request.user!.id, request.ip);
  } catch (err) {
    request.log.error({ err, event }, 'security notice not sent');
  }
}
