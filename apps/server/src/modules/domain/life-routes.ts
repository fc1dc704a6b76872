import { endpoints } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RegistryDriver } from '../../drivers/registry/interface.ts';
import { dayOf } from '../../drivers/registry/lifecycle.ts';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import { route } from '../../http/route.ts';
import { now, type Store } from '../../store/db.ts';
import type { ItemAccess } from '../permission/policy.ts';
import { domainOf } from './access.ts';
import type { Payloads } from './actions.ts';
import { awaitChange, openChanges, queueFromRequest, type Waited } from './changes.ts';
import { viaRegistry } from './refusals.ts';
import { toDomainAnswer } from './view.ts';

/** Who a billing event or restore report names: the user, or the API token acting for them. */
const actorOf = (request: FastifyRequest) => {
  const user = request.user!;
  return user.token ? `token:${user.token.id}:user:${user.id}` : `user:${user.id}`;
};

/** The domain as the registry has it after the action, with the panel's changes still on their way. */
async function answerAfter(store: Store, request: FastifyRequest, access: ItemAccess, registry: RegistryDriver, itemId: number) {
  const language = requestLanguage(request);
  const updated = (await registry.info(itemId))!;
  return toDomainAnswer(updated, access, language, await openChanges(store, itemId, language));
}

/** Renew, restore and a new auth code: the domain's life at its registry, each billable action in the ledger once. */
export default async function lifeRoutes(app: FastifyInstance) {
  const { store, config } = app.runtime;

  /**
   * Queues the change and waits for its job (jobs.waitSeconds) as the user waits for the registry's
   * answer; the registry's refusal is answered as the panel words it, under `field`.
   */
  async function waitFor(
    request: FastifyRequest,
    itemId: number,
    action: string,
    payload: unknown,
    field?: string | ((subject: string) => string),
  ): Promise<Waited> {
    const changeId = await queueFromRequest(request, itemId, action, payload);
    return viaRegistry(() => awaitChange(store, changeId, config.jobs.waitSeconds), field);
  }
  route(app, endpoints.domain.renew, async (request) => {
    const { access, info, registry } = await domainOf(request);
    const { years, curExpDate } = request.body;
    const max = registry.policy.maxYears;
    if (years < 1 || years > max) throw FieldErrors.one('years', 'domain.renew_years', { max });
    if (info.lifecycle.state !== 'active' && info.lifecycle.state !== 'grace') throw new ApiError(409, 'domain.renew_not_allowed');
    // The date the user saw must still be the expiry: a renewal sent twice finds the new date and stops here.
    if (dayOf(info.expireAt) !== curExpDate) throw FieldErrors.one('curExpDate', 'domain.renew_stale', { date: curExpDate });
    // From the registry's expiry, never the panel's stored copy (which may lag it): the registry checks curExpDate.
    const payload: Payloads['renew'] = { years, curExpDate: info.expireAt, actor: actorOf(request) };
    const waited = await waitFor(request, info.itemId, 'renew', payload, (subject) => (subject === 'years' ? 'years' : 'curExpDate'));
    return { data: await answerAfter(store, request, access, registry, info.itemId), info: [{ key: done(waited, 'domain.renewed') }] };
  });

  route(app, endpoints.domain.renewal, async (request) => {
    const { access, info, registry } = await domainOf(request);
    const { mode } = request.body;
    // The panel's own setting: the registry knows nothing of it. The write refreshes every cached read of the domain.
    await store
      .updateTable('domain')
      .set({ renewal_mode: mode, renew_claimed: null, updated_at: now() })
      .where('item_id', '=', info.itemId)
      .execute();
    return { data: await answerAfter(store, request, access, registry, info.itemId), info: [{ key: `domain.renewal_${mode}` }] };
  });

  route(app, endpoints.domain.restore, async (request) => {
    const { access, info, registry } = await domainOf(request);
    if (info.lifecycle.state !== 'redemption') throw new ApiError(409, 'domain.not_in_redemption');
    const redemption = registry.policy.redemptionDays * 86_400;
    const payload: Payloads['restore'] = {
      report: {
        deletedAt: info.lifecycle.until - redemption,
        restoredAt: now(),
        reason: 'Restored at the request of the registrant, who did not mean the domain to lapse.',
        by: actorOf(request),
      },
      expireAt: info.expireAt,
    };
    const waited = await waitFor(request, info.itemId, 'restore', payload);
    return { data: await answerAfter(store, request, access, registry, info.itemId), info: [{ key: done(waited, 'domain.restored') }] };
  });

  route(app, endpoints.domain.authcodeRegenerate, async (request) => {
    const { info, registry } = await domainOf(request);
    const waited = await waitFor(request, info.itemId, 'authInfoRegenerate', {});
    // The new code is the registry's: read back once applied, so no change row ever holds it.
    const authCode = waited === 'done' ? ((await viaRegistry(() => registry.authInfo(info.itemId))) ?? '') : '';
    return { data: { authCode }, info: [{ key: done(waited, 'domain.authcode_regenerated') }] };
  });
}

/** The answer's message: the action's own once applied, or that the change is on its way to the registry. */
const done = (waited: Waited, key: string) => (waited === 'done' ? key : 'domain.change_pending');
