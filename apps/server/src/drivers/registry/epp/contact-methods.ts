import { CONTACT_TYPES, type ContactType } from '@atalaya/contract';
import type { RegistryDriver } from '../interface.ts';
import { contactDisclose, contactInfo, contactUpdate, readContactInfo } from './contact-xml.ts';
import { holds, savePanelContact } from './contacts.ts';
import type { EppContext } from './context.ts';

const OTHER_ROLES = ['admin', 'tech', 'billing'] as const;

/** Contacts: changed in place when only the changed roles use them, else a new object; whois privacy as disclose flags. */
export function contactMethods(ctx: EppContext): Pick<RegistryDriver, 'updateContacts' | 'setPrivacy'> {
  const { store, settings, run, change, forChange, roleHandles, touch, newContact, updateDomain } = ctx;

  return {
    async setPrivacy(itemId, on) {
      const { domain } = await forChange(itemId);
      for (const id of new Set(Object.values(roleHandles(domain)).filter(Boolean) as string[])) {
        await change(contactDisclose(id, on), async () => readContactInfo((await run(contactInfo(id))).resData).hidden === on);
      }
      await touch(itemId);
    },

    async updateContacts(itemId, roles, data) {
      const { row, domain } = await forChange(itemId);
      const handles = roleHandles(domain);
      const moving = new Set<ContactType>();
      for (const role of roles) {
        const handle = handles[role];
        const sharedOutside = CONTACT_TYPES.some((other) => !roles.includes(other) && handles[other] === handle);
        const trade = role === 'registrant' && settings.registrantChange === 'create';
        if (!handle || sharedOutside || trade) moving.add(role);
      }
      // Contacts used only by these roles are updated in place, once each.
      const inPlace = new Set(roles.filter((r) => !moving.has(r)).map((r) => handles[r]!));
      for (const id of inPlace) {
        await change(contactUpdate(id, data), async () => holds(readContactInfo((await run(contactInfo(id))).resData), data));
      }
      const saved = { ...handles };
      if (moving.size) {
        // A contact shared with other roles, or a registrant the registry wants new: a new object for these roles.
        const hidden = (
          await Promise.all([...inPlace].map(async (id) => readContactInfo((await run(contactInfo(id))).resData).hidden))
        ).some(Boolean);
        const id = await newContact(data, hidden);
        const others = OTHER_ROLES.filter((r) => moving.has(r));
        await updateDomain(
          row.name,
          {
            registrant: moving.has('registrant') ? id : undefined,
            addContacts: others.map((type) => ({ type, id })),
            remContacts: others.filter((type) => handles[type]).map((type) => ({ type, id: handles[type]! })),
          },
          (d) => [...moving].every((role) => roleHandles(d)[role] === id),
        );
        for (const role of moving) saved[role] = id;
      }
      for (const role of roles) await savePanelContact(store, itemId, role, saved[role]!, data);
      await touch(itemId);
    },
  };
}
