import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';

/** GET /config/get/: the branding the SPA needs before anything else. */
export default async function configRoutes(app: FastifyInstance) {
  route(app, endpoints.config.get, async () => {
    const { company, languages, legal } = app.config;
    return {
      data: {
        themeConfig: { logo: company.logo, logo_mini: company.logoMini, color: company.color },
        company: company.name,
        allowCustomerColor: company.allowCustomerColor,
        languages,
        jurisdiction: legal.jurisdiction,
        contactForm: company.contactForm,
      },
    };
  });
}
