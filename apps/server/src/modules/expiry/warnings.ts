import { type Language, toLanguage, translate } from '@atalaya/contract';
import type { Runtime } from '../../runtime.ts';
import { now } from '../../store/db.ts';
import { createMailer } from '../account/mailer.ts';
import { AREA_OF, type ExpiringThing, expiringThings } from './expiring.ts';

const DAY = 86_400;

function mailText(language: Language, thing: ExpiringThing, at: number) {
  const days = Math.max(0, Math.ceil((thing.expiresAt - at) / DAY));
  const date = new Date(thing.expiresAt * 1000).toISOString().slice(0, 10);
  const advice = thing.source ? translate(language, `expiry.advice_${thing.source}`) : '';
  return {
    subject: translate(language, 'expiry.mail_subject', { name: thing.name }),
    text: `${translate(language, `expiry.mail_${thing.kind}`, { name: thing.name, date, days, advice })}\n`,
  };
}

/**
 * Mails the users who may write each thing that expires within one of the configured offsets
 * (30, 7 and 1 days by default), once per offset: the warning's row is claimed first (its key
 * makes a second process's claim a no-op), and a thing seen late (5 days left) counts every larger
 * offset as warned by the one mail it gets. A mail that fails after its claim is not sent again.
 * Answers the warnings sent, for the logs and tests.
 */
export async function warnExpiring(runtime: Runtime, at = now()): Promise<{ name: string; days: number; to: string[] }[]> {
  const { store, config } = runtime;
  const offsets = [...new Set(config.expiry.warnDays)].sort((a, b) => a - b);
  const things = (await expiringThings(store, at + offsets.at(-1)! * DAY)).filter((t) => t.expiresAt > at);
  const mail = createMailer(config);
  const sent: { name: string; days: number; to: string[] }[] = [];
  for (const thing of things) {
    const due = offsets.filter((days) => thing.expiresAt <= at + days * DAY);
    const rows = due.map((days) => ({ kind: thing.kind, subject_id: thing.subjectId, expires_at: thing.expiresAt, days, sent_at: at }));
    const fresh = await store
      .insertInto('expiry_warning')
      .values(rows)
      .onConflict((c) => c.columns(['kind', 'subject_id', 'expires_at', 'days']).doNothing())
      .returning('days')
      .execute();
    if (fresh.length === 0) continue;
    const writers = await store
      .selectFrom('permission')
      .innerJoin('user', 'user.id', 'permission.user_id')
      .select(['user.email', 'user.language'])
      .where('permission.item_id', '=', thing.itemId)
      .where('permission.area', '=', AREA_OF[thing.kind])
      .where('permission.level', '=', 'write')
      .where('user.disabled', '=', 0)
      .where('user.email', '!=', '')
      .execute();
    for (const writer of writers) {
      await mail({ ...mailText(toLanguage(writer.language), thing, at), replyTo: config.company.email, to: writer.email });
    }
    sent.push({ name: thing.name, days: Math.min(...fresh.map((f) => f.days)), to: writers.map((w) => w.email) });
  }
  return sent;
}
