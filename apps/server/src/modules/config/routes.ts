import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { frozen } from '../../http/serializer.ts';

/** GET /config/get/: the branding the SPA needs before anything else. */
export default async function configRoutes(app: FastifyInstance) {
  const { config } = app.runtime;
  // The configuration does not change while the server runs: one frozen answer, written once (a
  // copy, so that the configuration itself is not frozen).
  const { company, languages, legal } = config;
  const answer = frozen(
    structuredClone({
      themeConfig: { logo: company.logo, logo_mini: company.logoMini, color: company.color },
      company: company.name,
      allowCustomerColor: company.allowCustomerColor,
      languages,
      jurisdiction: legal.jurisdiction,
      contactForm: company.contactForm,
    }),
  );
  route(app, endpoints.config.get, async () => ({ data: answer }));
}
