import { endpoints } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RegistryDriver } from '../../drivers/registry/interface.ts';
import { dayOf } from '../../drivers/registry/lifecycle.ts';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import { route } from '../../http/route.ts';
import { emitEvent } from '../../kernel/events.ts';
import { now, type Store } from '../../store/db.ts';
import type { ItemAccess } from '../permission/policy.ts';
import { domainOf } from './access.ts';
import { recordBilling } from './billing.ts';
import { openChanges } from './changes.ts';
import { viaRegistry } from './refusals.ts';
import { renewAndBill } from './renew.ts';
import { toDomainAnswer } from './view.ts';

const YEAR = 365 * 86_400;

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
  const { store } = app.runtime;
  route(app, endpoints.domain.renew, async (request) => {
    const { access, info, registry } = await domainOf(request);
    const { years, curExpDate } = request.body;
    const max = registry.policy.maxYears;
    if (years < 1 || years > max) throw FieldErrors.one('years', 'domain.renew_years', { max });
    if (info.lifecycle.state !== 'active' && info.lifecycle.state !== 'grace') throw new ApiError(409, 'domain.renew_not_allowed');
    // The date the user saw must still be the expiry: a renewal sent twice finds the new date and stops here.
    if (dayOf(info.expireAt) !== curExpDate) throw FieldErrors.one('curExpDate', 'domain.renew_stale', { date: curExpDate });
    await viaRegistry(
      () => renewAndBill(store, registry, info, years, actorOf(request)),
      (subject) => (subject === 'years' ? 'years' : 'curExpDate'),
    );
    return { data: await answerAfter(store, request, access, registry, info.itemId), info: [{ key: 'domain.renewed' }] };
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
    const expireAt = await viaRegistry(() =>
      registry.restore(info.itemId, {
        deletedAt: info.lifecycle.until - redemption,
        restoredAt: now(),
        reason: 'Restored at the request of the registrant, who did not mean the domain to lapse.',
        by: actorOf(request),
      }),
    );
    await store.transaction().execute(async (trx) => {
      const billed = await recordBilling(trx, {
        itemId: info.itemId,
        domain: info.name,
        action: 'restore',
        years: Math.max(0, Math.round((expireAt - info.expireAt) / YEAR)),
        fromDate: dayOf(info.expireAt),
        expireAt,
        actor: actorOf(request),
      });
      if (billed) await emitEvent(trx, 'domain.restored', { name: info.name, expireAt, actor: actorOf(request), at: now() });
    });
    return { data: await answerAfter(store, request, access, registry, info.itemId), info: [{ key: 'domain.restored' }] };
  });

  route(app, endpoints.domain.authcodeRegenerate, async (request) => {
    const { info, registry } = await domainOf(request);
    const authCode = await viaRegistry(() => registry.regenerateAuthInfo(info.itemId));
    return { data: { authCode }, info: [{ key: 'domain.authcode_regenerated' }] };
  });
}
