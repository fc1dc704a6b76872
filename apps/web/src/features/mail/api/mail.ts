import { queryOptions } from '@tanstack/react-query';
import { pollWhilePending } from '../../../components/hosting/StateBadge.tsx';
import { call, fetchData } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

const mail = endpoints.service;

export const accountsKey = (id: number) => ['mail', id, 'correo'] as const;
export const aliasesKey = (id: number) => ['mail', id, 'alias'] as const;

export const accountsQuery = (id: number) =>
  queryOptions({
    queryKey: accountsKey(id),
    queryFn: () => fetchData(mail.mailList, { id }),
    refetchInterval: (q) => pollWhilePending(q.state.data?.correo),
  });
export const aliasesQuery = (id: number) =>
  queryOptions({
    queryKey: aliasesKey(id),
    queryFn: () => fetchData(mail.aliasList, { id }).then((d) => d.alias),
    refetchInterval: (q) => pollWhilePending(q.state.data),
  });

export const dkimKey = (id: number) => ['mail', id, 'dkim'] as const;
export const dkimQuery = (id: number) =>
  queryOptions({ queryKey: dkimKey(id), queryFn: () => fetchData(mail.dkimList, { id }).then((d) => d.keys) });
export const rotateDkim = (id: number) => call(mail.dkimRotate, { id });

export const createAccount = (id: number, name: string, password: string) => call(mail.mailCreate, { id }, { name, password });
export const accountPassword = (id: number, accountId: number) => fetchData(mail.mailPassword, { id, accountId }).then((d) => d.password);
export const changeAccountPassword = (id: number, accountId: number, password: string) =>
  call(mail.mailChangePassword, { id, accountId }, { password });
export const webmailLogin = (id: number, accountId: number) => fetchData(mail.mailLogin, { id, accountId });
/** The delivery form's fields as the server reads them (checkboxes "on" or empty). */
export type DeliveryFields = {
  quotaMb: string;
  autoreply: string;
  autoreplySubject: string;
  autoreplyText: string;
  autoreplyStart: string;
  autoreplyEnd: string;
  autoreplyDays: string;
  forwardTo: string;
  forwardKeep: string;
};
export const saveDelivery = (id: number, accountId: number, fields: DeliveryFields) => call(mail.mailDelivery, { id, accountId }, fields);
export const deleteAccount = (id: number, accountId: number) => call(mail.mailDelete, { id, accountId });

export const createAlias = (id: number, name: string, target: string) => call(mail.aliasCreate, { id }, { name, target });
export const saveAlias = (id: number, aliasId: number, target: string) => call(mail.aliasSave, { id, aliasId }, { target });
export const deleteAlias = (id: number, aliasId: number) => call(mail.aliasDelete, { id, aliasId });

/** The records the domain needs and how the world sees them: asked on demand (DNS lookups), shared by the card and the copy view. */
export const mailHealthKey = (id: number) => ['mail', id, 'health'] as const;
export const mailHealthQuery = (id: number) =>
  queryOptions({ queryKey: mailHealthKey(id), queryFn: () => fetchData(mail.mailHealth, { id }), staleTime: 0 });
