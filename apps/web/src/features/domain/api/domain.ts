import type { ContactSaveInput, ContactType, DomainToggle, RenewalMode } from '@atalaya/contract';
import { queryOptions } from '@tanstack/react-query';
import { pollWhilePending } from '../../../components/hosting/StateBadge.tsx';
import { call, type FormOf, fetchData } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

/** The domain calls of docs/behaviour/shell-session-domains.md#calls, one function each, with the query options the screen shares. */

export const domainKey = (id: number) => ['domain', id] as const;
export const glueKey = (id: number) => ['domain', id, 'glue'] as const;
export const dnssecKey = (id: number) => ['domain', id, 'dnssec'] as const;
export const transferKey = (id: number) => ['domain', id, 'transfer'] as const;
const domain = endpoints.domain;

/** The domain, read again every second while a change of it waits for the registry. */
export const domainQuery = (id: number) =>
  queryOptions({
    queryKey: domainKey(id),
    queryFn: () => fetchData(domain.get, { id }),
    refetchInterval: (q) => pollWhilePending(q.state.data?.changes),
  });
/** The domain's transfer, read again every second while this panel's transfer change waits for the registry. */
export const transferQuery = (id: number) =>
  queryOptions({
    queryKey: transferKey(id),
    queryFn: () => fetchData(domain.transfer, { id }),
    refetchInterval: (q) => pollWhilePending(q.state.data?.change ? [q.state.data.change] : []),
  });
export const glueQuery = (id: number) =>
  queryOptions({ queryKey: glueKey(id), queryFn: () => fetchData(domain.glueList, { id }).then((d) => d.gluerecords) });
export const dnssecQuery = (id: number) =>
  queryOptions({ queryKey: dnssecKey(id), queryFn: () => fetchData(domain.dnssecList, { id }).then((d) => d.dnssec) });
export const dnsInitQuery = (id: number) =>
  queryOptions({ queryKey: ['domain', id, 'dnsinit'], queryFn: () => fetchData(domain.nameServers, { id }), staleTime: 0 });
export const dnssecInitQuery = (id: number) =>
  queryOptions({ queryKey: ['domain', id, 'dnssecinit'], queryFn: () => fetchData(domain.dnssecInit, { id }) });

export const toggle = (id: number, which: DomainToggle) => call(domain.toggle, { id, toggle: which });
export const renew = (id: number, years: number, curExpDate: string) => call(domain.renew, { id }, { years: String(years), curExpDate });
export const setRenewalMode = (id: number, mode: RenewalMode) => call(domain.renewal, { id }, { mode });
export const restore = (id: number) => call(domain.restore, { id });
export const register = (id: number) => call(domain.register, { id });
export const regenerateAuthCode = (id: number) => call(domain.authcodeRegenerate, { id });
export const requestTransfer = (id: number, authCode: string) => call(domain.transferRequest, { id }, { authCode });
/** The call of each answer to a pending transfer: approving or rejecting one out, cancelling one in. */
export const TRANSFER_ANSWER = { approve: domain.transferApprove, reject: domain.transferReject, cancel: domain.transferCancel };
export const answerTransfer = (id: number, answer: keyof typeof TRANSFER_ANSWER) =>
  // The three calls share their path parameters and answer: one of them, as the client types it.
  call(TRANSFER_ANSWER[answer] as typeof domain.transferCancel, { id });
export const fetchAuthCode = (id: number) => fetchData(domain.authcode, { id }).then((d) => d.authCode);
export const fetchTransferKey = (id: number) => fetchData(domain.transferkey, { id }).then((d) => d.transferkey);

/** `confirm`: go on although the server named what the change breaks (a published DS without its key on the new servers). */
export const saveDns = (id: number, defaultNs: boolean, servers: string[], confirm = false) =>
  call(
    domain.saveNameServers,
    { id },
    { 'default-ns': defaultNs ? '1' : '0', dns: defaultNs ? undefined : servers, ...(confirm ? { confirm: '1' as const } : {}) },
  );

export const createGlue = (id: number, fields: { name: string; ip: string; ipv6: string }) => call(domain.glueCreate, { id }, fields);
export const saveGlue = (id: number, recordId: number, fields: { ip: string; ipv6: string }) =>
  call(domain.glueSave, { id, recordId }, fields);
export const deleteGlue = (id: number, recordId: number) => call(domain.glueDelete, { id, recordId });

export const createDnssec = (id: number, fields: FormOf<typeof domain.dnssecCreate>) => call(domain.dnssecCreate, { id }, fields);
export const deleteDnssec = (id: number, recordId: number) => call(domain.dnssecDelete, { id, dnssecId: recordId });

/** `confirm`: the user agreed to a change of owner; `optOut`: without the transfer lock that follows it. */
export const saveOwner = (id: number, fields: Omit<ContactSaveInput, 'type' | 'mode'>, owner: { confirm: boolean; optOut: boolean }) =>
  call(
    domain.ownerSave,
    { id },
    {
      ...fields,
      type: 'registrant',
      ...(owner.confirm ? { confirmOwnerChange: '1' as const } : {}),
      ...(owner.optOut ? { transferLockOptOut: '1' as const } : {}),
    },
  );
/** The call that saves a contact: the owner's is a change of owner, with its own permission. */
export const contactsCall = (type: ContactType) => (type === 'registrant' ? domain.ownerSave : domain.contactsSave);
export const saveContacts = (id: number, fields: ContactSaveInput) => call(domain.contactsSave, { id }, { ...fields });

export const lookupAddress = (fields: { country: string; state: string; city: string; postal_code: string }) =>
  fetchData(domain.country, {}, fields);
