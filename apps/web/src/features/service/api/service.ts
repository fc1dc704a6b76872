import type { AutoForm, DatabaseView, ErrorLogLine, FtpUser, ServiceView } from '@atalaya/contract';
import { queryOptions } from '@tanstack/react-query';
import { call, get, post } from '../../../lib/api.ts';
import { pollWhilePending } from '../../../components/hosting/StateBadge.tsx';

const base = (id: number) => `service/${id}/`;

export const serviceKey = (id: number) => ['service', id] as const;
/** GET /service/{id}/; polls while a change waits for its backend. */
export const serviceQuery = (id: number) =>
  queryOptions({
    queryKey: serviceKey(id),
    queryFn: () => get<{ service: ServiceView }>(base(id)).then((d) => d.service),
    refetchInterval: (q) => pollWhilePending(q.state.data ? [q.state.data] : undefined),
  });

export const setParking = (id: number, active: boolean) =>
  call<{ service: ServiceView }>('GET', `${base(id)}parking/${active ? 'active' : 'disable'}/`);
export const setPhp = (id: number, phpVersion: string) => call<{ service: ServiceView }>('POST', `${base(id)}php/`, { phpVersion });
export const errorLog = (id: number) => get<{ logs: ErrorLogLine[] }>(`${base(id)}logerror/`).then((d) => d.logs);
export const constructorFolder = (id: number) => get<{ folder: string }>(`${base(id)}webconstructor/`).then((d) => d.folder);
export const constructorLogin = (id: number, subdomain: string) => post<{ url: string }>(`${base(id)}webcontructorlogin/`, { subdomain }).then((d) => d.url);

// FTP
export const ftpKey = (id: number) => ['service', id, 'ftp'] as const;
export const ftpQuery = (id: number) =>
  queryOptions({
    queryKey: ftpKey(id),
    queryFn: () => get<{ ftps: FtpUser[] }>(`${base(id)}ftp/list/`).then((d) => d.ftps),
    refetchInterval: (q) => pollWhilePending(q.state.data),
  });
export const createFtp = (id: number, fields: { ftpUser: string; password: string; folder: string }) => call<{ ftp: FtpUser }>('POST', `${base(id)}ftp/create/`, fields);
export const saveFtp = (id: number, ftpId: number, folder: string) => call<{ ftp: FtpUser }>('POST', `${base(id)}ftp/${ftpId}/save/`, { folder });
export const ftpPassword = (id: number, ftpId: number, password: string) => call<null>('POST', `${base(id)}ftp/${ftpId}/changepassword/`, { password });
export const ftpLogin = (id: number, ftpId: number, initialDirectory = '') => get<AutoForm>(`${base(id)}ftp/${ftpId}/login/`, { initialDirectory });
export const deleteFtp = (id: number, ftpId: number) => call<null>('GET', `${base(id)}ftp/${ftpId}/delete/`);

// Databases
export const ddbbKey = (id: number) => ['service', id, 'ddbb'] as const;
export const ddbbQuery = (id: number) =>
  queryOptions({
    queryKey: ddbbKey(id),
    queryFn: () => get<{ ddbb: DatabaseView[] }>(`${base(id)}ddbb/list/`).then((d) => d.ddbb),
    refetchInterval: (q) => pollWhilePending(q.state.data),
  });
export const createDatabase = (id: number, password: string) => call<{ ddbb: DatabaseView }>('POST', `${base(id)}ddbb/create/`, { password });
export const databasePassword = (id: number, dbId: number) => get<{ ddbb: DatabaseView }>(`${base(id)}ddbb/${dbId}/`).then((d) => d.ddbb.password ?? '');
export const changeDatabasePassword = (id: number, dbId: number, password: string) => call<null>('POST', `${base(id)}ddbb/${dbId}/changepassword/`, { password });
export const databaseLogin = (id: number, dbId: number) => get<AutoForm>(`${base(id)}ddbb/${dbId}/login/`);
export const toggleExternal = (id: number, dbId: number) => call<{ ddbb: DatabaseView }>('GET', `${base(id)}ddbb/${dbId}/toggle/externalaccess/`);
export const deleteDatabase = (id: number, dbId: number) => call<null>('GET', `${base(id)}ddbb/${dbId}/delete/`);
export const dumpPath = (id: number, dbId: number) => `${base(id)}ddbb/${dbId}/dump/`;
