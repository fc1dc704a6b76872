import { z } from 'zod';
import { singleLine } from '../strings.ts';
import { endpoint } from './endpoint.ts';

/** The branding the SPA needs before anything else. */
export const siteConfigSchema = z.object({
  themeConfig: z.object({ logo: z.string(), logo_mini: z.string(), color: z.string() }),
  company: z.string(),
  allowCustomerColor: z.boolean(),
  languages: z.array(z.string()),
  jurisdiction: z.string(),
  /** The contact page: e-mail, subject and message, or the fuller variant that also asks name and phone. */
  contactForm: z.enum(['simple', 'full']),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;

export const config = {
  get: endpoint({
    method: 'GET',
    path: '/config/get/',
    query: z.object({ _referer_: singleLine(2000).optional() }),
    answer: siteConfigSchema,
    permission: { public: 'read' },
  }),
  /** This API's OpenAPI document. */
  openapi: endpoint({ method: 'GET', path: '/openapi.json', answer: { document: true }, permission: { public: 'read' } }),
};
