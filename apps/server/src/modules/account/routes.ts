import type { FastifyInstance } from 'fastify';
import { sealingKey } from '../../secrets.ts';
import { createCaptcha } from './captcha.ts';
import captchaRoutes from './captcha-routes.ts';
import contactRoutes from './contact-routes.ts';
import factorRoutes from './factors-routes.ts';
import legalRoutes from './legal-routes.ts';
import liveRoutes from './live-routes.ts';
import { createMailer } from './mailer.ts';
import passwordRoutes from './password-routes.ts';
import permissionRoutes from './permission-routes.ts';
import sessionRoutes from './session-routes.ts';
import tokenRoutes from './token-routes.ts';
import userRoutes from './user-routes.ts';

/** The account calls under /p247/: sign-in and session, second factors, API tokens, user, permissions, legal, contact, captcha, ws. */
export default async function accountRoutes(app: FastifyInstance) {
  const { store, config } = app.runtime;
  const captcha = createCaptcha(store, sealingKey(config));
  const mailer = createMailer(config);
  await app.register(captchaRoutes, { captcha });
  await app.register(sessionRoutes, { captcha, mailer });
  await app.register(userRoutes);
  await app.register(passwordRoutes);
  await app.register(permissionRoutes);
  await app.register(legalRoutes);
  await app.register(contactRoutes, { captcha, mailer });
  await app.register(liveRoutes);
  await app.register(factorRoutes);
  await app.register(tokenRoutes);
}
