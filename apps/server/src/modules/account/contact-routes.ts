import { contactMailSchema, contactSchema } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import type { Captcha } from './captcha.ts';
import type { Mail, Mailer } from './mailer.ts';
import { blockedFor, contactLimit, countEvent, minutesFor } from './ratelimit.ts';

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
  const api = app.withTypeProvider<ZodTypeProvider>();
  const brand = app.config.company.name;

  api.post('/contactmail/', { schema: { body: contactMailSchema } }, async (request) => {
    const user = request.user!;
    const { email, subject, contents, name, phone } = request.body;
    const who = lines({ Domain: user.realmName, User: user.username, Name: name, Email: email, Phone: phone });
    await deliver(request, opts.mailer, { subject: `[${brand}] ${subject}`, text: `${who}\n\n${contents}\n`, replyTo: email });
    return { data: null, info: [{ key: 'account.mail_sent' }] };
  });

  api.post('/contact/', { config: { public: 'form' }, schema: { body: contactSchema } }, async (request) => {
    const limit = contactLimit(request.ip);
    const wait = await blockedFor(app.store, limit);
    if (wait > 0) throw new ApiError(429, 'account.contact_locked', { minutes: minutesFor(wait) });
    if (!(await opts.captcha.verify(request.body.recaptcha_response))) throw FieldErrors.one('recaptcha_response', 'account.captcha_invalid');
    const { domain, user, name, email, contents } = request.body;
    const who = lines({ Domain: domain, User: user, Name: name, Email: email, IP: request.ip });
    await deliver(request, opts.mailer, { subject: `[${brand}] Password help: ${user}@${domain}`, text: `${who}\n\n${contents}\n`, replyTo: email });
    await countEvent(app.store, limit);
    return { data: null, info: [{ key: 'account.mail_sent' }] };
  });
}
