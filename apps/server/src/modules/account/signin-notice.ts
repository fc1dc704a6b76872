import { toLanguage, translate } from '@atalaya/contract';
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/db.ts';
import type { Mailer } from './mailer.ts';

export interface SignInPlace {
  userId: number;
  ip: string;
  /** The browser family (activity/agent.ts). */
  agent: string;
}

/**
 * Whether a sign-in comes from an address or a browser family this user has not signed in from
 * before, read from the activity log's successful sign-ins (so the retention setting bounds the
 * memory, decision 023). The first sign-in ever is not new: there is nothing to compare it with,
 * and the user who was just given the account needs no alarm.
 */
export async function isUnfamiliar(store: Store, place: SignInPlace, firstEver: boolean): Promise<boolean> {
  if (firstEver) return false;
  const seen = (column: 'ip' | 'agent', value: string) =>
    store
      .selectFrom('audit_event')
      .select('id')
      .where('user_id', '=', place.userId)
      .where('action', '=', 'login')
      .where('outcome', '=', 'success')
      .where(column, '=', value)
      .limit(1)
      .executeTakeFirst();
  const [ip, agent] = await Promise.all([seen('ip', place.ip), seen('agent', place.agent)]);
  return !ip || !agent;
}

/** Who an account's notices go to: the address, the name to greet and the language; null without an address. */
export async function accountHolder(store: Store, userId: number) {
  const user = await store
    .selectFrom('user')
    .innerJoin('realm', 'realm.id', 'user.realm_id')
    .select(['user.username', 'user.name', 'user.email', 'user.language', 'realm.name as realm'])
    .where('user.id', '=', userId)
    .executeTakeFirstOrThrow();
  if (!user.email) return null;
  return {
    email: user.email,
    language: toLanguage(user.language),
    account: `${user.username}@${user.realm}`,
    name: user.name || user.username,
  };
}

/** A notice's time as its text shows it: UTC, to the minute. */
export const noticeDate = (at: number) => new Date(at * 1000).toISOString().slice(0, 16).replace('T', ' ');

/** Mails the user, in their language, that their account was signed in to from somewhere new. */
export async function mailSignInNotice(store: Store, config: Config, mailer: Mailer, place: SignInPlace, at: number) {
  const holder = await accountHolder(store, place.userId);
  if (!holder) return false;
  const params = { account: holder.account, name: holder.name, date: noticeDate(at), ip: place.ip, agent: place.agent || '?' };
  await mailer({
    subject: translate(holder.language, 'activity.new_signin_subject', params),
    text: `${translate(holder.language, 'activity.new_signin_text', params)}\n`,
    replyTo: config.company.email,
    to: holder.email,
  });
  return true;
}
