import { type DomainToggle, endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { DomainInfo, RegistryDriver } from '../../drivers/registry/interface.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import { route } from '../../http/route.ts';
import { mayWrite } from '../permission/access.ts';
import { callerKey } from '../session/auth-cache.ts';
import { domainOf, toggleOf } from './access.ts';
import { viaRegistry } from './refusals.ts';
import { toDomainAnswer } from './view.ts';

/** GET /domain/{id}/, the three toggles and the auth code or transfer key. */
export default async function infoRoutes(app: FastifyInstance) {
  route(app, endpoints.domain.get, async (request) => {
    const { access, info } = await domainOf(request);
    const language = requestLanguage(request);
    // Each caller's answer is kept too, so that it is checked and written once (http/serializer.ts).
    const key = `domain:${info.itemId}:${callerKey(request.user!)}:${language}`;
    return { data: await request.server.authCache.remember(key, async () => toDomainAnswer(info, access, language)) };
  });

  route(app, endpoints.domain.toggle, async (request) => {
    // The write check on the toggle's own area comes first: nothing changes for a user who may only look.
    const { toggle, access, info, registry } = await toggleOf(request);
    const on = await viaRegistry(() => flip(registry, info, toggle));
    const updated = (await registry.info(info.itemId))!;
    return { data: toDomainAnswer(updated, access, requestLanguage(request)), info: [{ key: `domain.${toggle}_${on ? 'on' : 'off'}` }] };
  });

  for (const kind of ['authcode', 'transferkey'] as const) {
    route(app, endpoints.domain[kind], async (request) => {
      const { info, registry } = await domainOf(request);
      if (info.authKind !== kind) throw notFound();
      // A read never writes: the code is made at registration, or here for a domain registered
      // without one, and then only for a user who may change the area.
      let secret = await viaRegistry(() => registry.authInfo(info.itemId));
      if (secret === null) {
        if (!mayWrite(request)) throw new ApiError(409, 'domain.authinfo_missing');
        secret = await viaRegistry(() => registry.createAuthInfo(info.itemId));
      }
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
