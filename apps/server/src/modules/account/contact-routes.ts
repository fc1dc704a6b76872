import { endpoints } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { CONTACT_MAIL_LIMITS, contactLimit, giveBack, minutesFor, takeSlot, takeSlots } from '../../kernel/ratelimit.ts';
import type { Captcha } from './captcha.ts';
import type { Mail, Mailer } from './mailer.ts';

const lines = (fields: Record<string, string | undefined>) =>
  Object.entries(fields)
    .filter(([, value]) => value)
    .map(([label, value]) => `${label}: ${value}`)
    .join('\n');

/** A failed delivery is the provider's fault, not the user's: logged, answered with a generic 502. */
async function deliver(request: FastifyRequest, mailer: Mailer, mail: Mail) {
  try {
    await mailer(mail);
  } catch (error) {
    request.log.error({ err: error }, 'contact mail not sent');
    throw new ApiError(502, 'account.mail_failed');
  }
}

/** POST /contactmail/ (signed in) and /contact/ (the sign-in page's forgot-password dialog). */
export default async function contactRoutes(app: FastifyInstance, opts: { captcha: Captcha; mailer: Mailer }) {
  const { store, config } = app.runtime;
  const brand = config.company.name;

  route(app, endpoints.account.contactMail, async (request) => {
    const user = request.user!;
    const limits = [CONTACT_MAIL_LIMITS.user(user.id), CONTACT_MAIL_LIMITS.realm(user.realmId)];
    const { slots, wait } = await takeSlots(store, limits);
    if (wait > 0) throw new ApiError(429, 'account.contact_locked', { minutes: minutesFor(wait) });
    const { email, subject, contents, name, phone } = request.body;
    if (config.company.contactForm === 'full') {
      const missing = (['name', 'phone'] as const).filter((field) => !request.body[field]);
      if (missing.length > 0) throw new FieldErrors(missing.map((input) => ({ input, key: 'validation.required' })));
    }
    const who = lines({ Domain: user.realmName, User: user.username, Name: name, Email: email, Phone: phone });
    await deliver(request, opts.mailer, { subject: `[${brand}] ${subject}`, text: `${who}\n\n${contents}\n`, replyTo: email }).catch(
      async (error) => {
        await Promise.all(slots.map((slot) => giveBack(store, slot)));
        throw error;
      },
    );
    return { data: null, info: [{ key: 'account.mail_sent' }] };
  });

  route(app, endpoints.account.contact, async (request) => {
    // Counted before anything is checked; a message that is not sent gives its slot back.
    const slot = await takeSlot(store, contactLimit(request.ip));
    if (slot.wait > 0) throw new ApiError(429, 'account.contact_locked', { minutes: minutesFor(slot.wait) });
    if (!(await opts.captcha.verify(request.body.recaptcha_response))) {
      await giveBack(store, slot);
      throw FieldErrors.one('recaptcha_response', 'account.captcha_invalid');
    }
    const { domain, user, name, email, contents } = request.body;
    const who = lines({ Domain: domain, User: user, Name: name, Email: email, IP: request.ip });
    await deliver(request, opts.mailer, {
      subject: `[${brand}] Password help: ${user}@${domain}`,
      text: `${who}\n\n${contents}\n`,
      replyTo: email,
    }).catch(async (error) => {
      await giveBack(store, slot);
      throw error;
    });
    return { data: null, info: [{ key: 'account.mail_sent' }] };
  });
}
