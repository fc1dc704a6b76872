import { canSee, phpOptions, type ServiceView } from '@atalaya/contract';
import { backendState, waitingFor } from '../../../kernel/job-state.ts';
import type { Runtime } from '../../../kernel/runtime.ts';
import type { ServiceRow } from '../../permission/access.ts';
import type { ItemAccess } from '../../permission/policy.ts';

/** The service as the SPA sees it: usage, PHP, parking, server names, permissions, backend state. */
export async function serviceView(runtime: Runtime, access: ItemAccess, service: ServiceRow): Promise<ServiceView> {
  const [databases, job, node, backup] = await Promise.all([
    runtime.store
      .selectFrom('service_database')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('item_id', '=', service.item_id)
      .where('deleting', '=', 0)
      .executeTakeFirstOrThrow(),
    service.job_id
      ? runtime.store.selectFrom('job').select(['status', 'node_id']).where('id', '=', service.job_id).executeTakeFirst()
      : undefined,
    // A service placed on a node is reached at that node's host (decision 040).
    runtime.store
      .selectFrom('item')
      .innerJoin('node', 'node.id', 'item.node_id')
      .select(['node.id', 'node.name', 'node.host', 'node.last_contact_at'])
      .where('item.id', '=', service.item_id)
      .executeTakeFirst(),
    // The latest backup that ended (modules/backups writes them): a failed one is news on this screen.
    canSee(access.permissions, 'service_backups')
      ? runtime.store
          .selectFrom('backup')
          .select(['status', 'error', 'created_at', 'finished_at'])
          .where('item_id', '=', service.item_id)
          .where('status', 'in', ['done', 'failed'])
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst()
          .then((b) => b ?? null)
      : undefined,
  ]);
  const ref = access.reference;
  return {
    id: service.item_id,
    frontendDbID: service.item_id,
    reference: ref,
    isRedirAndParking: service.kind === 'parking',
    usage: {
      spaceWeb: { used: service.used_space_web, limit: service.limit_space_web },
      traffic: { used: service.used_traffic, limit: service.limit_traffic },
      BBDD: { used: Number(databases.n), limit: service.limit_databases },
      spaceBbdd: { used: service.used_space_databases, limit: service.limit_space_databases },
    },
    usageMeasuredTS: service.usage_measured_at === null ? null : Number(service.usage_measured_at),
    defaultPHPVersion: runtime.config.hosting.defaultPhpVersion,
    phpversion: service.php_version,
    phpminversion: service.php_min_version,
    phpOptions: phpOptions(service.php_min_version),
    parkingActive: service.parking_active === 1,
    ftpServer: node?.host ?? `ftp.${ref}`,
    databaseServer: node?.host ?? `bbdd.${ref}`,
    webFtp: true,
    permissions: access.permissions,
    ...(backup === undefined
      ? {}
      : {
          backupFailed:
            backup?.status === 'failed'
              ? { time: new Date(Number(backup.finished_at ?? backup.created_at) * 1000).toISOString(), reason: backup.error ?? '' }
              : null,
        }),
    state: backendState(0, job?.status),
    job: service.job_id,
    ...(job?.node_id != null && job.node_id === node?.id
      ? waitingFor(job.status, { job_node: node.name, job_node_contact: node.last_contact_at })
      : {}),
  };
}
