import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dnsSettings } from '../../src/drivers/dns/index.ts';
import { ensureZone } from '../../src/modules/dns/zone.ts';
import { createItem, createRealm } from '../../src/modules/provisioning/accounts.ts';
import { enqueueWeb, insertChild } from '../../src/modules/service/jobs.ts';
import { queueMove } from '../../src/modules/service/move.ts';
import { enqueueUsage } from '../../src/modules/service/usage.ts';
import { INSTALL_JOB } from '../../src/modules/sites/installer/job.ts';
import { enqueueApply, siteKey } from '../../src/modules/sites/state.ts';
import { drainNode } from '../../src/nodes/nodes.ts';
import { claimJobs } from '../../src/outbox/claim.ts';
import { enqueue } from '../../src/outbox/outbox.ts';
import { createSecrets, sealingKey } from '../../src/secrets.ts';
import { now } from '../../src/store/db.ts';
import { imapFirstMessage, imapLogin } from '../backends/harness/dovecot.ts';
import { curlFtp } from '../backends/harness/pureftpd.ts';
import { packageFile, zip } from '../installer/archives.ts';
import { describeStores, openTestStore } from '../stores.ts';
import { type Cluster, startCluster } from './cluster.ts';
import { eventually, launch } from './processes.ts';

const NODES = ['web1', 'web2'] as const;
/** DokuWiki's id in the panel's catalogue: an application without a database. */
const DOKUWIKI = 6;
type NodeName = (typeof NODES)[number];

/**
 * The panel and two agents as processes, each node in a network namespace of its own with its own
 * nginx and Dovecot (cluster.ts, as docs/deploy.md sets nodes up).
 */
describeStores('moving a service between nodes on %s', (kind) => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let cluster: Cluster;
  let secrets: ReturnType<typeof createSecrets>;
  let realm: string;
  let packages: string | undefined;
  const env = () => ({ ATALAYA_DATA_DIR: opened.config.dataDir, DATABASE_URL: opened.config.databaseUrl ?? '' });
  /** The address the zone's apex A record gives. */
  const apexAddress = async (itemId: number) =>
    (
      await opened.store
        .selectFrom('dns_record')
        .select('value')
        .where('item_id', '=', itemId)
        .where('zona', '=', '')
        .where('type', '=', 'A')
        .executeTakeFirstOrThrow()
    ).value;
  const job = (id: number) => opened.store.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const doneJob = (id: number, ms = 60_000) => eventually(async () => (await job(id)).status === 'done', ms, `job ${id} done`);
  const served = (name: NodeName, host: string) => cluster.served(name, host);
  const passwd = (name: NodeName) => {
    const file = String(cluster.nodes[name]!.dovecot.options.passwdFile);
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  };
  const siteFiles = (name: NodeName) => {
    const dir = path.join(cluster.nodes[name]!.dir, 'nginx', 'atalaya', 'sites');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  /**
   * What a moved service holds: the site www (folder public), the mailbox ana (password pw-ana),
   * the FTP account web (pw-ftp, home the site's folder) and its zone; answers the site and the
   * jobs that apply them.
   */
  async function serviceContent(itemId: number, reference: string) {
    const t = now();
    const site = await opened.store
      .insertInto('site')
      .values({ service_id: itemId, name: 'www', folder: 'public', created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    const jobs = [await enqueueWeb(opened.store, itemId), await enqueueApply(opened.store, itemId, siteKey(site.id))];
    const mailbox = await insertChild(opened.store, 'mail_account', itemId, {
      item_id: itemId,
      name: 'ana',
      password_secret: secrets.encrypt('pw-ana'),
      quota: 0,
      job_id: null,
      created_at: t,
    });
    const ftpUser = await insertChild(opened.store, 'ftp_user', itemId, {
      item_id: itemId,
      name: 'web',
      login: `web.${reference}`,
      folder: '/public',
      password_secret: secrets.encrypt('pw-ftp'),
      created_at: t,
    });
    await ensureZone(opened.store, { settings: dnsSettings(opened.config) }, itemId, reference);
    return { site, jobs: [...jobs, mailbox.job, ftpUser.job] };
  }

  beforeAll(async () => {
    opened = await openTestStore(kind);
    realm = `move-${kind}.test`;
    await createRealm(opened.store, realm);
    secrets = createSecrets(sealingKey(opened.config));
    // An application package on the mirror (here a path both nodes read): the installer runs on the service's node.
    packages = mkdtempSync(path.join(tmpdir(), 'atalaya-node-packages-'));
    const dokuwiki = packageFile(
      path.join(packages, 'dokuwiki.zip'),
      zip([{ name: 'dokuwiki-2024-02-06b/doku.php', body: '<?php // wiki\n' }]),
    );
    cluster = await startCluster(
      opened,
      [...NODES],
      { ATALAYA_JOB_LEASE_SECONDS: '5' },
      { drivers: { installer: { packages: { dokuwiki } } } },
    );
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    if (packages) rmSync(packages, { recursive: true, force: true });
    await opened.cleanup();
  });

  it('applies a DNS change of a service placed on web1 while web1 agent is stopped, its node job waiting behind', {
    timeout: 90_000,
  }, async () => {
    const item = await createItem(opened.store, { realm, reference: 'away.test', service: 'normal', node: 'web1' });
    await cluster.stopAgent('web1');
    const { job: mailbox } = await insertChild(opened.store, 'mail_account', item.id, {
      item_id: item.id,
      name: 'eva',
      password_secret: secrets.encrypt('pw-eva'),
      quota: 0,
      job_id: null,
      created_at: now(),
    });
    await ensureZone(opened.store, { settings: dnsSettings(opened.config) }, item.id, 'away.test');
    const zoneJob = await opened.store
      .selectFrom('job')
      .select('id')
      .where('item_id', '=', item.id)
      .where('kind', '=', 'dns.apply-zone')
      .executeTakeFirstOrThrow();
    await doneJob(zoneJob.id, 30_000);
    // The zone the panel serves points at web1, the service's node.
    expect(await apexAddress(item.id)).toBe(cluster.nodes.web1!.net.address);
    expect(await job(mailbox)).toMatchObject({ status: 'pending', attempts: 0 });
    await cluster.startAgent('web1').waitFor(/connected to .* as web1/, 60_000);
    await doneJob(mailbox);
  });

  it('moves a service from web1 to web2: the same site, mailbox and FTP account served from web2, web1 holding nothing of it', {
    timeout: 180_000,
  }, async () => {
    const reference = 'moved.test';
    const item = await createItem(opened.store, { realm, reference, service: 'normal', mail: true, node: 'web1' });
    const { site, jobs } = await serviceContent(item.id, reference);
    for (const id of jobs) await doneJob(id);
    /** The page as the FTP account reads it from a node's Pure-FTPd (its home is the site's folder). */
    const ftpPage = (name: NodeName) => curlFtp(cluster.nodes[name]!.ftp, `web.${reference}`, 'pw-ftp', '/index.html');

    // The customer's files on web1: a page, and a message in the mailbox.
    const webRoot = (name: NodeName) => cluster.webRoot(name, reference);
    writeFileSync(path.join(webRoot('web1'), 'public', 'index.html'), 'hello from the moved site\n');
    const home = (name: NodeName) => path.join(String(cluster.nodes[name]!.dovecot.options.mailRoot), reference, 'ana');
    mkdirSync(path.join(home('web1'), 'Maildir', 'new'), { recursive: true });
    mkdirSync(path.join(home('web1'), 'Maildir', 'cur'), { recursive: true });
    mkdirSync(path.join(home('web1'), 'Maildir', 'tmp'), { recursive: true });
    writeFileSync(
      path.join(home('web1'), 'Maildir', 'new', '1700000000.M1P1.node'),
      'From: eva@example.test\r\nTo: ana@moved.test\r\nSubject: kept\r\n\r\nthe message that moves\r\n',
    );
    spawnSync('chown', ['-R', '65534:65534', path.join(String(cluster.nodes.web1!.dovecot.options.mailRoot), reference)]);
    await eventually(async () => (await served('web1', `www.${reference}`)).includes('hello from the moved site'), 15_000, 'web1 serving');
    // Created on web1, served by web1's nginx only.
    expect(await served('web2', `www.${reference}`)).toMatch(/\n404$/);
    expect(
      await imapFirstMessage(cluster.nodes.web1!.dovecot.imapPort, `ana@${reference}`, 'pw-ana', cluster.nodes.web1!.net.address),
    ).toContain('the message that moves');
    expect((await ftpPage('web1')).stdout).toBe('hello from the moved site\n');

    const cli = launch('cli', ['service-move', reference, '--to', 'web2', '--wait'], env());
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toMatch(/Moving moved\.test to web2: job (\d+)/);
    expect(cli.output()).toContain('Moved moved.test to web2');
    const moveJob = Number(/job (\d+)/.exec(cli.output())?.[1]);
    expect(await job(moveJob)).toMatchObject({ status: 'done', progress: 100, node_id: expect.any(Number) });
    // The data went by a snapshot (reason move) taken on web1 and restored by web2's agent, straight
    // from the realm's repository: nothing was packed to cross the panel (decision 064).
    const taken = await opened.store.selectFrom('backup').selectAll().where('job_id', '=', moveJob).executeTakeFirstOrThrow();
    expect(taken).toMatchObject({ item_id: item.id, reason: 'move', status: 'done' });
    expect((JSON.parse(taken.parts) as { part: string }[]).map((p) => p.part)).toEqual(expect.arrayContaining(['web', 'mail']));
    await eventually(
      async () => Boolean(cluster.nodes.web2!.agent?.output().includes(`applied backups.restore for job ${moveJob}`)),
      10_000,
      'web2 to log its restore',
    );
    expect(cluster.nodes.web1!.agent?.output()).toContain(`applied backups.snapshot for job ${moveJob}`);
    expect(cluster.nodes.web1!.agent?.output()).not.toContain(`applied transfer.pack for job ${moveJob}`);

    // web2 serves the same page and the same mailbox.
    await eventually(async () => (await served('web2', `www.${reference}`)).includes('hello from the moved site'), 15_000, 'web2 serving');
    expect(
      await imapFirstMessage(cluster.nodes.web2!.dovecot.imapPort, `ana@${reference}`, 'pw-ana', cluster.nodes.web2!.net.address),
    ).toContain('the message that moves');
    expect((await ftpPage('web2')).stdout).toBe('hello from the moved site\n');
    // web1 holds nothing of it: no host, no files, no mailbox, no FTP account.
    await eventually(async () => (await served('web1', `www.${reference}`)).endsWith('\n404'), 15_000, 'web1 answering 404');
    expect(siteFiles('web1').filter((f) => f.includes(`site-${site.id}`))).toEqual([]);
    expect(existsSync(webRoot('web1'))).toBe(false);
    expect(existsSync(home('web1'))).toBe(false);
    expect(passwd('web1')).not.toContain(`@${reference}`);
    expect(passwd('web2')).toContain(`ana@${reference}:`);
    const refused = await ftpPage('web1');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/530|denied/i);
    // The records the panel serves point at web2; the item is placed there.
    expect(await apexAddress(item.id)).toBe(cluster.nodes.web2!.net.address);
    const placed = await opened.store
      .selectFrom('item')
      .innerJoin('node', 'node.id', 'item.node_id')
      .select('node.name')
      .where('item.id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(placed.name).toBe('web2');
  });

  it('applies a change queued after the move on the new node', { timeout: 90_000 }, async () => {
    const item = await opened.store.selectFrom('item').select('id').where('reference', '=', 'moved.test').executeTakeFirstOrThrow();
    const { job: id } = await insertChild(opened.store, 'mail_account', item.id, {
      item_id: item.id,
      name: 'luis',
      password_secret: secrets.encrypt('pw-luis'),
      quota: 0,
      job_id: null,
      created_at: now(),
    });
    await doneJob(id);
    expect(passwd('web2')).toContain('luis@moved.test:');
    expect(passwd('web1')).not.toContain('luis@');
  });

  it('measures the usage of the moved service on web2, where its files are', { timeout: 90_000 }, async () => {
    const item = await opened.store.selectFrom('item').select('id').where('reference', '=', 'moved.test').executeTakeFirstOrThrow();
    const id = await enqueueUsage(opened.store, item.id);
    await doneJob(id);
    const page = statSync(path.join(cluster.webRoot('web2', 'moved.test'), 'public', 'index.html')).size;
    const service = await opened.store
      .selectFrom('service')
      .select('used_space_web')
      .where('item_id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(Number(service.used_space_web)).toBeGreaterThanOrEqual(page);
    // The job is done once the agent answers; its log line may follow a moment later.
    await eventually(
      async () => Boolean(cluster.nodes.web2!.agent?.output().includes(`applied web.spaceUsed for job ${id}`)),
      10_000,
      'the agent to log the call',
    );
    expect(cluster.nodes.web2!.agent?.output()).toContain(`applied web.spaceUsed for job ${id}`);
  });

  it('installs an application on web2, where the moved service is, with its progress', { timeout: 90_000 }, async () => {
    const item = await opened.store.selectFrom('item').select('id').where('reference', '=', 'moved.test').executeTakeFirstOrThrow();
    const site = await opened.store.selectFrom('site').select('id').where('service_id', '=', item.id).executeTakeFirstOrThrow();
    const id = await opened.store.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('installation')
        .values({
          service_id: item.id,
          site_id: site.id,
          app_id: DOKUWIKI,
          directory: 'public/wiki',
          url: 'http://www.moved.test/wiki/',
          database_id: null,
          created_at: now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const sealed = secrets.encrypt(JSON.stringify({ values: {} }));
      return enqueue(trx, INSTALL_JOB, { installationId: row.id, sealed, overwrite: false }, item.id);
    });
    await doneJob(id);
    expect(existsSync(path.join(cluster.webRoot('web2', 'moved.test'), 'public', 'wiki', 'doku.php'))).toBe(true);
    expect(existsSync(cluster.webRoot('web1', 'moved.test'))).toBe(false);
    // The job is done once the agent answers; its log line may follow a moment later.
    await eventually(
      async () => Boolean(cluster.nodes.web2!.agent?.output().includes(`applied installer.install for job ${id}`)),
      10_000,
      'the agent to log the call',
    );
    expect(cluster.nodes.web2!.agent?.output()).toContain(`applied installer.install for job ${id}`);
  });

  it('refuses to move a service to the node it is on, or to a node that does not exist', { timeout: 90_000 }, async () => {
    const same = launch('cli', ['service-move', 'moved.test', '--to', 'web2'], env());
    expect(await same.exited).not.toBe(0);
    expect(same.output()).toContain('moved.test is on web2 already');
    const none = launch('cli', ['service-move', 'moved.test', '--to', 'web9'], env());
    expect(await none.exited).not.toBe(0);
    expect(none.output()).toContain('No node named web9');
  });

  it('moves a service from the panel machine to web1 once its changes queued there have applied: its site, mailbox and FTP account then on web1, the panel holding none of its files', {
    timeout: 180_000,
  }, async () => {
    // A service made before the nodes were: while none is active, it stays on the panel's machine.
    for (const name of NODES) await drainNode(opened.store, name);
    const reference = 'home.test';
    const item = await createItem(opened.store, { realm, reference, service: 'normal', mail: true });
    for (const name of NODES) await drainNode(opened.store, name, true);
    const placement = async () =>
      (await opened.store.selectFrom('item').select('node_id').where('id', '=', item.id).executeTakeFirstOrThrow()).node_id;
    expect(await placement()).toBeNull();
    const { jobs } = await serviceContent(item.id, reference);
    for (const id of jobs) {
      await doneJob(id);
      expect((await job(id)).node_id).toBeNull();
    }
    // The customer's page on the panel's machine, where its local drivers keep web roots.
    const panelRoot = path.join(opened.config.dataDir, 'www', reference);
    mkdirSync(path.join(panelRoot, 'public'), { recursive: true });
    writeFileSync(path.join(panelRoot, 'public', 'index.html'), 'hello from the panel machine\n');
    // Readable by the node's daemons as a web server's files are (this process's umask is tighter);
    // queued in this process, since every panel process that starts makes its data dir private.
    spawnSync('chmod', ['-R', 'a+rX', panelRoot]);

    // A change queued on the panel before the move, held back: the move waits for it.
    const held = await opened.store.transaction().execute(async (trx) => {
      const id = await enqueueWeb(trx, item.id);
      await trx
        .updateTable('job')
        .set({ next_at: now() + 3600 })
        .where('id', '=', id)
        .execute();
      return id;
    });
    const moveJob = await queueMove(opened.store, reference, 'web1');
    const web1 = await opened.store.selectFrom('node').select('id').where('name', '=', 'web1').executeTakeFirstOrThrow();
    // The move holds the whole item (decision 055): no worker of web1 may claim it while the change before it is unfinished.
    const claimed = await claimJobs(opened.store, 30, 'move-test', now(), 10, web1.id);
    expect(claimed.map((j) => j.id)).not.toContain(moveJob);
    expect(await job(moveJob)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(existsSync(panelRoot)).toBe(true);
    await opened.store.updateTable('job').set({ next_at: now() }).where('id', '=', held).execute();
    await doneJob(held);
    await doneJob(moveJob, 120_000);
    expect(await job(moveJob)).toMatchObject({ status: 'done', progress: 100, node_id: web1.id });
    expect(await placement()).toBe(web1.id);

    await eventually(
      async () => (await served('web1', `www.${reference}`)).includes('hello from the panel machine'),
      15_000,
      'web1 serving',
    );
    const ftp = await curlFtp(cluster.nodes.web1!.ftp, `web.${reference}`, 'pw-ftp', '/index.html');
    expect(ftp.stdout, ftp.stderr).toBe('hello from the panel machine\n');
    expect(passwd('web1')).toContain(`ana@${reference}:`);
    expect(await imapLogin(cluster.nodes.web1!.dovecot.imapPort, `ana@${reference}`, 'pw-ana', cluster.nodes.web1!.net.address)).toBe(true);
    expect(existsSync(panelRoot)).toBe(false);
    expect(await apexAddress(item.id)).toBe(cluster.nodes.web1!.net.address);
  });
});
