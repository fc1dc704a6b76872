import { type ContactFields, endpoints, OTHER_CONTACT_TYPES } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { ContactData } from '../../drivers/registry/interface.ts';
import { actorOf } from '../../http/actor.ts';
import { FieldErrors } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { now } from '../../store/db.ts';
import { recordActivity } from '../activity/record.ts';
import { domainOf } from './access.ts';
import { queueFromRequest, queueRegistryChange, refuseBlocked } from './changes.ts';
import { isCountry } from './countries.ts';
import { dayText, isOwnerChange, lockDaysFor, lockTransfers } from './owner.ts';
import { resolveCity, resolveState } from './places.ts';

/** The form's fields as a registry contact; state and city take their keys when the lookup knows them. */
function toContactData(fields: ContactFields): ContactData {
  if (!isCountry(fields.country)) throw FieldErrors.one('country', 'domain.country_invalid');
  const state = resolveState(fields.country, fields.state);
  const city = resolveCity(fields.country, state.key, fields.city);
  return {
    isOrg: fields.isOrg === '1',
    orgName: fields.isOrg === '1' ? fields.orgName : '',
    firstName: fields.firstName,
    lastName: fields.lastName,
    identNumber: fields.identNumber.toUpperCase(),
    email: fields.email.toLowerCase(),
    phone: fields.phone,
    address: fields.address,
    postalCode: fields.postalCode.toUpperCase(),
    city: city.name,
    cityKey: city.key,
    state: state.name,
    stateKey: state.key,
    country: fields.country,
  };
}

/** The registrant (owner contacts) and the admin, billing and tech contacts (contacts). */
export default async function contactRoutes(app: FastifyInstance) {
  const { store, config } = app.runtime;
  route(app, endpoints.domain.ownerSave, async (request) => {
    const { access, info } = await domainOf(request);
    const data = toContactData(request.body);
    refuseBlocked(info);
    if (!isOwnerChange(info.contacts.registrant, data)) {
      await queueFromRequest(request, info.itemId, 'contacts', { roles: ['registrant'], data });
      return { data: {}, info: [{ key: 'domain.owner_saved' }] };
    }
    // Another person or organisation: the user confirms, having been told of the transfer lock.
    const days = lockDaysFor(config, info.name);
    if (request.body.confirmOwnerChange !== '1')
      throw FieldErrors.one('confirmOwnerChange', days > 0 ? 'domain.owner_change_confirm' : 'domain.owner_change_confirm_nolock', {
        days,
      });
    const optOut = request.body.transferLockOptOut === '1';
    const userId = request.user?.id ?? null;
    const until = await store.transaction().execute(async (trx) => {
      await queueRegistryChange(trx, { itemId: info.itemId, action: 'contacts', payload: { roles: ['registrant'], data }, userId });
      const end = days > 0 && !optOut ? await lockTransfers(trx, info.itemId, now() + days * 86_400, userId) : 0;
      // The consent itself, with what the user was told and chose, beside the call route() records.
      await recordActivity(trx, {
        ...actorOf(request),
        action: 'domain.owner_change_consent',
        item: { id: info.itemId, reference: access.reference },
        area: endpoints.domain.ownerSave.permission.area,
        detail: { lockDays: days, optOut, lockedUntil: end ? dayText(end) : '' },
      });
      return end;
    });
    return {
      data: {},
      info: [until ? { key: 'domain.owner_changed_locked', params: { date: dayText(until) } } : { key: 'domain.owner_saved' }],
    };
  });

  route(app, endpoints.domain.contactsSave, async (request) => {
    const { info } = await domainOf(request);
    const data = toContactData(request.body);
    const all = request.body.mode === 'all_contacts';
    refuseBlocked(info);
    await queueFromRequest(request, info.itemId, 'contacts', { roles: all ? [...OTHER_CONTACT_TYPES] : [request.body.type], data });
    return { data: {}, info: [{ key: all ? 'domain.contacts_saved' : 'domain.contact_saved' }] };
  });
}
