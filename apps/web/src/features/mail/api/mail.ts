import type { AutoForm, MailAccount, MailAlias, MailConfig } from '@atalaya/contract';
import { queryOptions } from '@tanstack/react-query';
import { pollWhilePending } from '../../../components/hosting/StateBadge.tsx';
import { call, get } from '../../../lib/api.ts';

const base = (id: number) => `service/${id}/`;

export const accountsKey = (id: number) => ['mail', id, 'correo'] as const;
export const aliasesKey = (id: number) => ['mail', id, 'alias'] as const;

export const accountsQuery = (id: number) =>
  queryOptions({
    queryKey: accountsKey(id),
    queryFn: () => get<{ correo: MailAccount[]; config: MailConfig }>(`${base(id)}correo/list/`),
    refetchInterval: (q) => pollWhilePending(q.state.data?.correo),
  });
export const aliasesQuery = (id: number) =>
  queryOptions({
    queryKey: aliasesKey(id),
    queryFn: () => get<{ alias: MailAlias[] }>(`${base(id)}alias/list/`).then((d) => d.alias),
    refetchInterval: (q) => pollWhilePending(q.state.data),
  });

export const createAccount = (id: number, name: string, password: string) => call<{ correo: MailAccount }>('POST', `${base(id)}correo/create/`, { name, password });
export const accountPassword = (id: number, accountId: number) => get<{ password: string }>(`${base(id)}correo/${accountId}/password/`).then((d) => d.password);
export const changeAccountPassword = (id: number, accountId: number, password: string) => call<null>('POST', `${base(id)}correo/${accountId}/changepassword/`, { password });
export const webmailLogin = (id: number, accountId: number) => get<AutoForm>(`${base(id)}correo/${accountId}/login/`);
export const deleteAccount = (id: number, accountId: number) => call<null>('GET', `${base(id)}correo/${accountId}/delete/`);

export const createAlias = (id: number, name: string, target: string) => call<{ alias: MailAlias }>('POST', `${base(id)}alias/create/`, { name, target });
export const saveAlias = (id: number, aliasId: number, target: string) => call<{ alias: MailAlias }>('POST', `${base(id)}alias/${aliasId}/save/`, { target });
export const deleteAlias = (id: number, aliasId: number) => call<null>('GET', `${base(id)}alias/${aliasId}/delete/`);
