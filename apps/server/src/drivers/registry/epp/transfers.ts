import { type RegistryDriver, RegistryError, type TransferState, type TransferStatus } from '../interface.ts';
import type { EppCommand } from './command.ts';
import type { EppContext } from './context.ts';
import { domainInfo } from './domain-xml.ts';
import { child, NS, text, type XmlNode } from './xml.ts';

/** RFC 5731 §3.2.4: <transfer op="…"> of a domain; only `request` names a period and the code. */
export function domainTransfer(
  op: 'request' | 'query' | 'approve' | 'reject' | 'cancel',
  name: string,
  request?: { authInfo: string; years: number },
): EppCommand {
  const body: XmlNode = { '@_xmlns:domain': NS.domain, 'domain:name': name };
  if (request) {
    body['domain:period'] = { '#text': String(request.years), '@_unit': 'y' };
    body['domain:authInfo'] = { 'domain:pw': request.authInfo };
  }
  return { name: `domain:transfer ${op}`, read: op === 'query', node: { transfer: { '@_op': op, 'domain:transfer': body } } };
}

const seconds = (date: string) => (date ? Math.floor(Date.parse(date) / 1000) || 0 : 0);

/** A <domain:trnData> (a transfer answer, or a poll message's), as the driver reports it. */
export function readTransferData(resData: XmlNode | undefined, clientId: string): TransferState | null {
  const data = child(resData, 'trnData');
  if (!data) return null;
  const exDate = text(child(data, 'exDate'));
  return {
    status: text(child(data, 'trStatus')) as TransferStatus,
    requestedBy: text(child(data, 'reID')),
    requestedAt: seconds(text(child(data, 'reDate'))),
    actionBy: text(child(data, 'acID')),
    actionAt: seconds(text(child(data, 'acDate'))),
    expireAt: exDate ? seconds(exDate) : null,
    incoming: text(child(data, 'reID')) === clientId,
  };
}

/**
 * Transfers at an EPP registry. A change whose answer is lost is settled by a query, never sent
 * again: a second request would be refused (2300) and a second approval find nothing pending.
 */
export function transferMethods(
  ctx: EppContext,
): Pick<RegistryDriver, 'checkAuthInfo' | 'transferRequest' | 'transferQuery' | 'transferApprove' | 'transferReject' | 'transferCancel'> {
  const { run, change, domainRow, touch, settings } = ctx;

  const query = async (name: string): Promise<TransferState | null> => {
    try {
      return readTransferData((await run(domainTransfer('query', name))).resData, settings.clientId);
    } catch (error) {
      // 2201: not a party to the transfer; 2301: none was ever requested.
      if (error instanceof RegistryError && (error.code === 'authorization' || error.code === 'blocked' || error.code === 'not_found'))
        return null;
      throw error;
    }
  };

  const answer = async (itemId: number, op: 'approve' | 'reject' | 'cancel') => {
    const { name } = await domainRow(itemId);
    await change(domainTransfer(op, name), async () => (await query(name))?.status !== 'pending');
    const state = await query(name);
    if (!state) throw new RegistryError('not_found');
    // Let go: the store names the new holder, as the poll queue does when the registry approves it, so nothing here renews it.
    await touch(itemId, op === 'approve' && state.status === 'clientApproved' ? { sponsor: state.requestedBy } : {});
    return state;
  };

  return {
    async checkAuthInfo(itemId, authCode) {
      const { name } = await domainRow(itemId);
      try {
        await run(domainInfo(name, authCode));
        return true;
      } catch (error) {
        if (error instanceof RegistryError && error.code === 'authorization') return false;
        throw error;
      }
    },

    async transferRequest(itemId, authCode, years) {
      const { name } = await domainRow(itemId);
      await change(domainTransfer('request', name, { authInfo: authCode, years }), async () => {
        const state = await query(name);
        return state?.status === 'pending' && state.requestedBy === settings.clientId;
      });
      await touch(itemId);
      const state = await query(name);
      if (!state) throw new RegistryError('not_found');
      return state;
    },

    async transferQuery(itemId) {
      return query((await domainRow(itemId)).name);
    },

    transferApprove: (itemId) => answer(itemId, 'approve'),
    transferReject: (itemId) => answer(itemId, 'reject'),
    transferCancel: (itemId) => answer(itemId, 'cancel'),
  };
}
