import { endpoints } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import { route } from '../../http/route.ts';
import { type DomainContext, domainOf } from './access.ts';
import { queueFromRequest } from './changes.ts';
import { viaRegistry } from './refusals.ts';
import { transferView } from './transfers.ts';

/**
 * Transfers (RFC 5731 §3.2.4): in, with the auth code the current registrar gave; out, the
 * answer to another registrar's request. Every change goes to the registry through the outbox
 * (decision 038); the panel checks first what it can know itself, so a refusal comes under its
 * field and nothing is queued.
 */
export default async function transferRoutes(app: FastifyInstance) {
  const { store, secrets } = app.runtime;
  const view = (request: FastifyRequest, { info, registry }: DomainContext) =>
    transferView(store, registry, info, requestLanguage(request));

  route(app, endpoints.domain.transfer, async (request) => ({ data: await view(request, await domainOf(request)) }));

  route(app, endpoints.domain.transferRequest, async (request) => {
    const domain = await domainOf(request);
    const { info, registry } = domain;
    if (info.heldBy === null) throw new ApiError(409, 'domain.transfer_ours');
    if (info.pendingTransfer) throw new ApiError(409, 'domain.transfer_pending');
    if (info.heldBy === '') throw FieldErrors.one('authCode', 'domain.transfer_unknown');
    const { authCode } = request.body;
    // The registry answers whether the code is right before anything is queued: a wrong one is the user's to fix now.
    const right = await viaRegistry(() => registry.checkAuthInfo(info.itemId, authCode), 'authCode');
    if (!right) throw FieldErrors.one('authCode', 'domain.transfer_authcode_wrong');
    await queueFromRequest(request, info.itemId, 'transferRequest', { sealed: secrets.encrypt(authCode), years: 1 });
    return { data: await view(request, domain), info: [{ key: 'domain.transfer_requested' }] };
  });

  const answers = [
    [endpoints.domain.transferApprove, 'transferApprove', 'domain.transfer_approved', false],
    [endpoints.domain.transferReject, 'transferReject', 'domain.transfer_rejected', false],
    [endpoints.domain.transferCancel, 'transferCancel', 'domain.transfer_cancelled', true],
  ] as const;
  for (const [entry, action, done, ours] of answers) {
    route(app, entry, async (request) => {
      const domain = await domainOf(request);
      const state = await viaRegistry(() => domain.registry.transferQuery(domain.info.itemId));
      // Approve and reject answer another registrar's request for a domain of ours; cancel takes back our own.
      if (state?.status !== 'pending' || state.incoming !== ours) throw new ApiError(409, 'domain.transfer_none');
      await queueFromRequest(request, domain.info.itemId, action, {});
      return { data: await view(request, domain), info: [{ key: done }] };
    });
  }
}
