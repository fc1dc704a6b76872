import { queryOptions } from '@tanstack/react-query';
import { pollWhilePending } from '../../../components/hosting/StateBadge.tsx';
import { call, download, fetchData } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

export { createDatabase, ddbbKey, ddbbQuery, serviceKey, serviceQuery } from '../../../lib/hosting.ts';

const service = endpoints.service;

export const setParking = (id: number, active: boolean) => call(active ? service.parkingOn : service.parkingOff, { id });
export const setPhp = (id: number, phpVersion: string) => call(service.php, { id }, { phpVersion });
export const errorLog = (id: number) => fetchData(service.errorLog, { id }).then((d) => d.logs);
export const constructorFolder = (id: number) => fetchData(service.webConstructor, { id }).then((d) => d.folder);
export const constructorLogin = (id: number, subdomain: string) =>
  fetchData(service.webConstructorLogin, { id }, { subdomain }).then((d) => d.url);

// FTP
export const ftpKey = (id: number) => ['service', id, 'ftp'] as const;
export const ftpQuery = (id: number) =>
  queryOptions({
    queryKey: ftpKey(id),
    queryFn: () => fetchData(service.ftpList, { id }).then((d) => d.ftps),
    refetchInterval: (q) => pollWhilePending(q.state.data),
  });
export const createFtp = (id: number, fields: { ftpUser: string; password: string; folder: string }) =>
  call(service.ftpCreate, { id }, fields);
export const saveFtp = (id: number, ftpId: number, folder: string) => call(service.ftpSave, { id, ftpId }, { folder });
export const ftpPassword = (id: number, ftpId: number, password: string) => call(service.ftpPassword, { id, ftpId }, { password });
export const ftpLogin = (id: number, ftpId: number, initialDirectory = '') =>
  fetchData(service.ftpLogin, { id, ftpId }, { initialDirectory });
export const deleteFtp = (id: number, ftpId: number) => call(service.ftpDelete, { id, ftpId });

// Databases
export const databasePassword = (id: number, dbId: number) => fetchData(service.ddbbGet, { id, dbId }).then((d) => d.ddbb.password ?? '');
export const changeDatabasePassword = (id: number, dbId: number, password: string) =>
  call(service.ddbbPassword, { id, dbId }, { password });
export const databaseLogin = (id: number, dbId: number) => fetchData(service.ddbbLogin, { id, dbId });
export const toggleExternal = (id: number, dbId: number) => call(service.ddbbExternalAccess, { id, dbId });
export const deleteDatabase = (id: number, dbId: number) => call(service.ddbbDelete, { id, dbId });
export const dumpDatabase = (id: number, dbId: number) => download(service.ddbbDump, { id, dbId });

/** Measures the service's usage now; the answer's job is followed until done (docs/behaviour/service-area-dns.md#service-home). */
export const refreshUsage = (id: number) => call(service.usageRefresh, { id });
