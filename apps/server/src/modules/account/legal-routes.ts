import { endpoints, type PrivacyPolicy, translate } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { requestLanguage } from '../../http/language.ts';
import { route } from '../../http/route.ts';

/** GET /legal/privacypolicy/: the operator's text when configured, else a translated default. */
export default async function legalRoutes(app: FastifyInstance) {
  const { config } = app.runtime;
  route(app, endpoints.account.privacyPolicy, async (request) => {
    const lang = requestLanguage(request);
    const { legal, company } = config;
    const params = { company: company.name, email: company.email, jurisdiction: legal.jurisdiction };
    const data: PrivacyPolicy = {
      title: legal.privacyTitle || translate(lang, 'account.privacy_title'),
      text: legal.privacyText || translate(lang, 'account.privacy_text', params),
      redirecTo: legal.privacyLink || null,
    };
    return { data };
  });
}
