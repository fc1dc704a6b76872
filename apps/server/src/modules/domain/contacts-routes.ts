import { type ContactFields, endpoints, OTHER_CONTACT_TYPES } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { ContactData } from '../../drivers/registry/interface.ts';
import { FieldErrors } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { domainOf } from './access.ts';
import { queueFromRequest, refuseBlocked } from './changes.ts';
import { isCountry } from './countries.ts';
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
  route(app, endpoints.domain.ownerSave, async (request) => {
    const { info } = await domainOf(request);
    const data = toContactData(request.body);
    refuseBlocked(info);
    await queueFromRequest(request, info.itemId, 'contacts', { roles: ['registrant'], data });
    return { data: {}, info: [{ key: 'domain.owner_saved' }] };
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
