import { getServers } from 'node:dns';
import { endpoints, translate } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { txtStrings } from '../../../dkim.ts';
import { dnsSettings } from '../../../drivers/dns/index.ts';
import { requestLanguage } from '../../../http/language.ts';
import { route } from '../../../http/route.ts';
import { targetOf } from '../../dns/check/probe.ts';
import { hostsZone, mailRecords, mtaStsPolicy, zoneMxHosts } from '../../dns/mail-records.ts';
import { servesMtaSts } from '../../sites/mta-sts.ts';
import { type MailFindingCode, mailHealth, resolverLookup } from './health.ts';

/** GET /service/{id}/mail/health/: the records a mail domain needs, and how the world sees them. */
export default async function mailHealthRoutes(app: FastifyInstance) {
  const { store, config } = app.runtime;
  const { mailIp } = dnsSettings(config);
  const defaults = config.hosting.mailRecords;

  route(app, endpoints.service.mailHealth, async (request) => {
    const { access } = request;
    const domain = access.reference;
    const itemId = access.mail.item_id;
    const wanted = await mailRecords(store, config, itemId, domain);
    // The configured resolver, else the system's: "as the world sees them", not the panel's own rows.
    const resolver = defaults.resolver ?? getServers()[0] ?? '127.0.0.1';
    const target = await targetOf('resolver', { resolver });
    const lookup = target ? resolverLookup(target) : () => Promise.reject(new Error('no resolver'));
    const { findings, live } = await mailHealth({ domain, wanted, serverIp: mailIp, mtaSts: defaults.mtaSts !== 'off', lookup });
    const lang = requestLanguage(request);
    const say = (f: MailFindingCode) => ({
      ...f,
      text: translate(lang, `mail.health.${f.code}`, f.params),
      fix: f.level === 'ok' ? '' : translate(lang, `mail.health.${f.code}_fix`, f.params),
    });
    return {
      data: {
        domain,
        hosted: await hostsZone(store, itemId),
        records: wanted.map((r, i) => ({
          purpose: r.purpose,
          name: r.zona ? `${r.zona}.${domain}` : domain,
          type: r.type,
          priority: r.priority,
          value: r.value,
          strings: r.type === 'TXT' ? txtStrings(r.value) : [],
          live: live[i]!,
        })),
        findings: findings.map(say),
        mtaStsPolicy: mtaStsPolicy(config, await zoneMxHosts(store, config, itemId, domain)),
        mtaStsServed: await servesMtaSts(store, config, itemId),
      },
    };
  });
}
