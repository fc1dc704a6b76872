import { type Language, toLanguage, translate } from '@atalaya/contract';
import type { Kysely } from 'kysely';
import type { Config } from '../../config/config.ts';
import { emitEvent } from '../../kernel/events.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import type { Schedule } from '../../scheduler.ts';
import { now } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
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

type Sent = { name: string; days: number; to: string[] }[];

/**
 * Claims the warnings due at `at` for the users who may write each thing that expires within one
 * of the configured offsets (30, 7 and 1 days by default), once per offset: the warning's row is
 * claimed first (its key makes a second process's claim a no-op), and a thing seen late (5 days
 * left) counts every larger offset as warned by the one mail it gets. Answers the sending, to run
 * once the claims are committed; a mail that fails after its claim is not sent again. The sending
 * answers the warnings sent, for the logs and tests.
 */
export async function claimWarnings(trx: Kysely<Database>, config: Config, at = now()): Promise<() => Promise<Sent>> {
  const offsets = [...new Set(config.expiry.warnDays)].sort((a, b) => a - b);
  const things = (await expiringThings(trx, at + offsets.at(-1)! * DAY)).filter((t) => t.expiresAt > at);
  const mails: { thing: ExpiringThing; days: number; writers: { email: string; language: string }[] }[] = [];
  for (const thing of things) {
    const due = offsets.filter((days) => thing.expiresAt <= at + days * DAY);
    const rows = due.map((days) => ({ kind: thing.kind, subject_id: thing.subjectId, expires_at: thing.expiresAt, days, sent_at: at }));
    const fresh = await trx
      .insertInto('expiry_warning')
      .values(rows)
      .onConflict((c) => c.columns(['kind', 'subject_id', 'expires_at', 'days']).doNothing())
      .returning('days')
      .execute();
    if (fresh.length === 0) continue;
    // A domain's expiry reaches the billing system too, at each offset, in the claim's transaction.
    if (thing.kind === 'domain') {
      const days = Math.min(...fresh.map((f) => f.days));
      await emitEvent(trx, 'domain.expiring', { name: thing.name, expireAt: thing.expiresAt, days, at });
    }
    const writers = await trx
      .selectFrom('permission')
      .innerJoin('user', 'user.id', 'permission.user_id')
      .select(['user.email', 'user.language'])
      .where('permission.item_id', '=', thing.itemId)
      .where('permission.area', '=', AREA_OF[thing.kind])
      .where('permission.level', '=', 'write')
      .where('user.disabled', '=', 0)
      .where('user.email', '!=', '')
      .execute();
    mails.push({ thing, days: Math.min(...fresh.map((f) => f.days)), writers });
  }
  return async () => {
    const mail = createMailer(config);
    for (const { thing, writers } of mails)
      for (const writer of writers)
        await mail({ ...mailText(toLanguage(writer.language), thing, at), replyTo: config.company.email, to: writer.email });
    return mails.map(({ thing, days, writers }) => ({ name: thing.name, days, to: writers.map((w) => w.email) }));
  };
}

/** Claims the warnings due at `at` and sends them: what the schedule does, at a time of the caller's. */
export async function warnExpiring(runtime: Runtime, at = now()): Promise<Sent> {
  const send = await runtime.store.transaction().execute((trx) => claimWarnings(trx, runtime.config, at));
  return send();
}

/** The expiry warnings as a schedule (runtime.ts's SCHEDULES): soon after the start, then hourly. */
export const expiryWarningSchedule = (config: Config): Schedule => ({
  name: 'expiry-warnings',
  everyMs: 3_600_000,
  firstAfterMs: 5_000,
  run: (trx) => claimWarnings(trx, config),
});
