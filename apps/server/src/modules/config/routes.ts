import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/** GET /config/get/: the branding the SPA needs before anything else. */
export default async function configRoutes(app: FastifyInstance) {
  app.get(
    '/config/get/',
    {
      config: { public: 'read' },
      schema: { querystring: z.object({ _referer_: z.string().max(2000).optional() }) },
    },
    async () => {
      const { company, languages, legal } = app.config;
      return {
        data: {
          themeConfig: { logo: company.logo, logo_mini: company.logoMini, color: company.color },
          company: company.name,
          allowCustomerColor: company.allowCustomerColor,
          languages,
          jurisdiction: legal.jurisdiction,
        },
      };
    },
  );
}
