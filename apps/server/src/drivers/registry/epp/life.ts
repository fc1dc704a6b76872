import { now } from '../../../store/db.ts';
import { FRESH_AUTHINFO_LENGTH, generateAuthInfo } from '../authinfo.ts';
import { type RegistryDriver, RegistryError } from '../interface.ts';
import { addYears, dayOf, type LifePolicy } from '../lifecycle.ts';
import type { EppContext } from './context.ts';
import { domainRenew, domainRestore } from './life-xml.ts';

/**
 * Renew, restore and a new auth code at an EPP registry. Each change whose answer is lost is
 * settled by reading the domain back, never by sending it again: a renewal sent twice would add
 * its years twice if the registry did not check `curExpDate`.
 */
export function lifeMethods(ctx: EppContext, policy: LifePolicy): Pick<RegistryDriver, 'renew' | 'restore' | 'regenerateAuthInfo'> {
  const { change, domainRow, registered, forChange, touch, updateDomain } = ctx;
  return {
    async renew(itemId, years, curExpDate) {
      const row = await domainRow(itemId);
      const expected = addYears(curExpDate, years);
      // The registry's rules said first, naming the field, as the local registry does: the registry refuses the same (2306, 2004).
      const current = await registered(row.name);
      if (dayOf(current.expireAt) !== dayOf(curExpDate)) throw new RegistryError('policy', 'curExpDate');
      if (years < 1 || years > policy.maxYears || expected > addYears(now(), policy.maxYears)) throw new RegistryError('policy', 'years');
      await change(domainRenew(row.name, curExpDate, years), async () => (await registered(row.name)).expireAt === expected);
      const { expireAt } = await registered(row.name);
      await touch(itemId, { expire_at: expireAt });
      return expireAt;
    },

    async restore(itemId, report) {
      const row = await domainRow(itemId);
      const domain = await registered(row.name);
      if (domain.rgp !== 'redemptionPeriod' && domain.rgp !== 'pendingRestore') throw new RegistryError('blocked');
      // A request the registry took before (the report failed) is not asked again.
      if (domain.rgp === 'redemptionPeriod') {
        await change(domainRestore(row.name), async () => (await registered(row.name)).rgp !== 'redemptionPeriod');
      }
      await change(domainRestore(row.name, { ...report, deletedAt: report.deletedAt || domain.updatedAt }), async () => {
        const now = await registered(row.name);
        return now.rgp !== 'pendingRestore' && now.rgp !== 'redemptionPeriod';
      });
      const { expireAt } = await registered(row.name);
      await touch(itemId, { expire_at: expireAt });
      return expireAt;
    },

    async regenerateAuthInfo(itemId) {
      const { row } = await forChange(itemId);
      const code = generateAuthInfo(FRESH_AUTHINFO_LENGTH);
      await updateDomain(row.name, { authInfo: code }, (d) => d.authInfo === code);
      await touch(itemId);
      return code;
    },
  };
}
