import { DOMAIN_TOGGLES, type DomainToggle } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DomainInfo, RegistryDriver } from '../../drivers/registry/interface.ts';
import { notFound } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import { openDomain } from './registry.ts';
import { viaRegistry } from './refusals.ts';
import { toDomainAnswer } from './view.ts';

const idParams = { params: z.object({ id: z.string() }) };
const toggleParams = { params: z.object({ id: z.string(), toggle: z.string() }) };

/** Block and whois privacy are "others" (spec §6); the transfer block has its own area. */
const TOGGLE_AREA = { block: 'domain_others', whoisprivacy: 'domain_others', transferblock: 'domain_transferblock' } as const;

/** GET /domain/{id}/, the three toggles and the auth code or transfer key. */
export async function infoRoutes(plain: FastifyInstance) {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.get('/domain/:id/', { schema: idParams }, async (request) => {
    const { access, info } = await openDomain(request, request.params.id, 'domain', 'read');
    return { data: toDomainAnswer(info, access, requestLanguage(request)) };
  });

  app.get('/domain/:id/toggle/:toggle/', { schema: toggleParams }, async (request) => {
    const toggle = request.params.toggle as DomainToggle;
    if (!(DOMAIN_TOGGLES as readonly string[]).includes(toggle)) throw notFound();
    // The write check comes first: nothing changes for a user who may only look.
    const { access, info, registry } = await openDomain(request, request.params.id, TOGGLE_AREA[toggle], 'write');
    const on = await viaRegistry(() => flip(registry, info, toggle));
    const updated = (await registry.info(info.itemId))!;
    return { data: toDomainAnswer(updated, access, requestLanguage(request)), info: [{ key: `domain.${toggle}_${on ? 'on' : 'off'}` }] };
  });

  for (const kind of ['authcode', 'transferkey'] as const) {
    app.get(`/domain/:id/${kind}/`, { schema: idParams }, async (request) => {
      const { info, registry } = await openDomain(request, request.params.id, 'domain_authcode', 'read');
      if (info.authKind !== kind) throw notFound();
      const secret = await viaRegistry(() => registry.authInfo(info.itemId));
      return { data: kind === 'authcode' ? { authCode: secret } : { transferkey: secret } };
    });
  }
}

/** Applies one toggle and answers its new state. */
async function flip(registry: RegistryDriver, info: DomainInfo, toggle: DomainToggle) {
  if (toggle === 'whoisprivacy') {
    await registry.setPrivacy(info.itemId, !info.privacy);
    return !info.privacy;
  }
  const status = toggle === 'block' ? 'clientUpdateProhibited' : 'clientTransferProhibited';
  const on = !info.statuses.includes(status);
  await registry.updateStatus(info.itemId, on ? { add: [status] } : { rem: [status] });
  return on;
}
