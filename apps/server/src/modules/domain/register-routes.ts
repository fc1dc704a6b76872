import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import { route } from '../../http/route.ts';
import { domainAsItIs } from './access.ts';
import { actorName } from './billing.ts';
import { openChanges } from './changes.ts';
import { queueRegistration } from './register.ts';
import { isUnregistered } from './registry.ts';
import { toDomainAnswer } from './view.ts';

/**
 * POST /domain/{id}/register/: a domain writer registers a domain the registry has not got yet
 * (decision 051), for a year with the realm's default contacts and the provider's name servers.
 * A purchase, so never a read's side effect: queued for the registry and billed once when applied.
 */
export default async function registerRoutes(app: FastifyInstance) {
  const { store, config } = app.runtime;
  route(app, endpoints.domain.register, async (request) => {
    const { access, info } = await domainAsItIs(request);
    if (!isUnregistered(info)) throw new ApiError(409, 'domain.already_registered');
    const language = requestLanguage(request);
    // Sent twice, the second finds the first on its way: one registration asked, one billed.
    if ((await openChanges(store, info.itemId, language)).some((c) => c.action === 'register' && c.state === 'pending'))
      throw new ApiError(409, 'domain.register_pending');
    const user = request.user!;
    await queueRegistration(
      { store, config },
      { itemId: info.itemId, name: info.name, realm: user.realmName },
      { actor: actorName(user), userId: user.id },
    );
    const changes = await openChanges(store, info.itemId, language);
    return { data: toDomainAnswer(info, access, language, changes), info: [{ key: 'domain.register_queued' }] };
  });
}
