import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dnsSettings } from '../../src/drivers/dns/index.ts';
import { ensureZone } from '../../src/modules/dns/zone.ts';
import { createItem, createRealm } from '../../src/modules/provisioning/accounts.ts';
import { enqueueWeb, insertChild } from '../../src/modules/service/jobs.ts';
import { enqueueApply, siteKey } from '../../src/modules/sites/state.ts';
import { panelCa } from '../../src/nodes/ca.ts';
import { addNode } from '../../src/nodes/nodes.ts';
import { createSecrets, sealingKey } from '../../src/secrets.ts';
import { now } from '../../src/store/db.ts';
import { freePort, removeDir, tempDir } from '../backends/harness/common.ts';
import { type DovecotHarness, imapFirstMessage, startDovecot } from '../backends/harness/dovecot.ts';
import { NGINX, runNginx } from '../backends/harness/nginx.ts';
import { exec } from '../backends/http.ts';
import { describeStores, openTestStore } from '../stores.ts';
import { type NodeNetwork, nodeNetwork } from './network.ts';
import { eventually, type Launched, launch } from './processes.ts';

const NODES = ['web1', 'web2'] as const;
type NodeName = (typeof NODES)[number];

interface TestNode {
  net: NodeNetwork;
  dir: string;
  httpPort: number;
  nginx: { stop(): Promise<void> };
  dovecot: DovecotHarness;
  agent?: Launched;
}

/**
 * The panel and two agents as processes, as docs/deploy.md#nodes-hosting-on-other-machines sets
 * them up, each node in a network namespace of its own (veth pair; loopback addresses where the
 * machine allows no namespaces) with its own nginx and Dovecot listening on the node's address, and
 * its own web roots, nginx files, passwd-file and mail root. The agent runs inside the node's
 * namespace, so the nginx it reloads is the node's.
 */
describeStores('moving a service between nodes on %s', (kind) => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let panel: Launched;
  let panelPort: string;
  let secrets: ReturnType<typeof createSecrets>;
  let realm: string;
  const nodes = {} as Record<NodeName, TestNode>;
  const env = () => ({ ATALAYA_DATA_DIR: opened.config.dataDir, DATABASE_URL: opened.config.databaseUrl ?? '' });
  const job = (id: number) => opened.store.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const doneJob = (id: number, ms = 60_000) => eventually(async () => (await job(id)).status === 'done', ms, `job ${id} done`);

  function startAgent(name: NodeName, token?: string) {
    const node = nodes[name];
    const panelUrl = `https://${node.net.panelAddress}:${panelPort}`;
    node.agent = launch(
      'agent',
      ['--dir', path.join(node.dir, 'state'), ...(token ? ['--panel', panelUrl, '--enrol', token] : [])],
      { ATALAYA_CONFIG: path.join(node.dir, 'agent.json'), ATALAYA_DATA_DIR: node.dir },
      node.net.wrap,
    );
    return node.agent;
  }
  async function stopAgent(name: NodeName) {
    nodes[name].agent?.child.kill('SIGTERM');
    await nodes[name].agent?.exited;
    nodes[name].agent = undefined;
  }
  /** What the node's nginx answers for a host: its body, or the status line of a refusal. */
  const served = (name: NodeName, host: string) =>
    exec('/usr/bin/curl', [
      '-sS',
      '--max-time',
      '5',
      '-w',
      '\n%{http_code}',
      '--resolve',
      `${host}:${nodes[name].httpPort}:${nodes[name].net.address}`,
      `http://${host}:${nodes[name].httpPort}/`,
    ]).then((r) => r.stdout);
  const passwd = (name: NodeName) => {
    const file = String(nodes[name].dovecot.options.passwdFile);
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  };
  const siteFiles = (name: NodeName) => {
    const dir = path.join(nodes[name].dir, 'nginx', 'atalaya', 'sites');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  beforeAll(async () => {
    opened = await openTestStore(kind);
    realm = `move-${kind}.test`;
    await createRealm(opened.store, realm);
    secrets = createSecrets(sealingKey(opened.config));
    for (const [i, name] of NODES.entries()) {
      const net = nodeNetwork(i + 1);
      const dir = await tempDir(`node-${name}`);
      const httpPort = await freePort();
      const nginxDir = path.join(dir, 'nginx');
      mkdirSync(nginxDir);
      const nginx = await runNginx(nginxDir, {
        connections: 64,
        port: httpPort,
        host: net.address,
        wrap: net.wrap,
        http: [
          '  types { text/html html; text/plain txt; }',
          `  server { listen ${net.address}:${httpPort} default_server; return 404; }`,
          `  include ${path.join(nginxDir, 'atalaya', 'sites')}/*.conf;`,
        ],
      });
      const dovecot = await startDovecot(undefined, { host: net.address, wrap: net.wrap });
      nodes[name] = { net, dir, httpPort, nginx, dovecot };
      const sites = {
        driver: 'nginx',
        nginx: NGINX,
        confFile: path.join(nginxDir, 'nginx.conf'),
        prefix: `${nginxDir}/`,
        baseDir: path.join(nginxDir, 'atalaya'),
        logDir: path.join(nginxDir, 'logs'),
        listenAddress: net.address,
        httpPort,
        httpsPort: await freePort(),
        phpSocket: path.join(dir, 'php{version}-fpm.sock'),
        timeoutMs: 15_000,
      };
      const agentConfig = {
        hosting: { webRoot: path.join(dir, 'www') },
        drivers: { sites, web: { driver: 'nginx' }, mail: { driver: 'dovecot', ...dovecot.options } },
      };
      writeFileSync(path.join(dir, 'agent.json'), JSON.stringify(agentConfig));
    }
    const panelConfig = path.join(opened.config.dataDir, 'panel.json');
    writeFileSync(panelConfig, JSON.stringify({ nodes: { hosts: ['127.0.0.1', ...NODES.map((n) => nodes[n].net.panelAddress)] } }));
    panel = launch('server', [], {
      ...env(),
      ATALAYA_CONFIG: panelConfig,
      PORT: '0',
      HOST: '127.0.0.1',
      ATALAYA_NODES_PORT: '0',
      ATALAYA_JOB_LEASE_SECONDS: '5',
    });
    panelPort = (await panel.waitFor(/Hosting nodes connect at https:\/\/[^:]+:(\d+)\//, 60_000))[1];
    const ca = await panelCa(opened.store, secrets);
    await Promise.all(
      NODES.map(async (name) => {
        const token = await addNode(opened.store, ca, name, ['web', 'mail'], name, nodes[name].net.address);
        await startAgent(name, token).waitFor(new RegExp(`connected to .* as ${name}`), 60_000);
      }),
    );
  }, 180_000);

  afterAll(async () => {
    for (const name of NODES) nodes[name]?.agent?.child.kill('SIGKILL');
    panel?.child.kill('SIGKILL');
    for (const name of NODES) {
      const node = nodes[name];
      if (!node) continue;
      await node.nginx.stop();
      await node.dovecot.stop();
      node.net.remove();
      await removeDir(node.dir);
    }
    await opened.cleanup();
  });

  it('applies a DNS change of a service placed on web1 while web1 agent is stopped, its node job waiting behind', {
    timeout: 90_000,
  }, async () => {
    const item = await createItem(opened.store, { realm, reference: 'away.test', service: 'normal', node: 'web1' });
    await stopAgent('web1');
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
    const apex = await opened.store
      .selectFrom('dns_record')
      .select('value')
      .where('item_id', '=', item.id)
      .where('zona', '=', '')
      .where('type', '=', 'A')
      .executeTakeFirstOrThrow();
    expect(apex.value).toBe(nodes.web1.net.address);
    expect(await job(mailbox)).toMatchObject({ status: 'pending', attempts: 0 });
    await startAgent('web1').waitFor(/connected to .* as web1/, 60_000);
    await doneJob(mailbox);
  });

  it('moves a service from web1 to web2: the same site and mailbox served from web2, web1 holding nothing of it', {
    timeout: 180_000,
  }, async () => {
    const reference = 'moved.test';
    const item = await createItem(opened.store, { realm, reference, service: 'normal', mail: true, node: 'web1' });
    const t = now();
    const site = await opened.store
      .insertInto('site')
      .values({ service_id: item.id, name: 'www', folder: 'public', created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    const jobs = [await enqueueWeb(opened.store, item.id), await enqueueApply(opened.store, item.id, siteKey(site.id))];
    const { job: mailbox } = await insertChild(opened.store, 'mail_account', item.id, {
      item_id: item.id,
      name: 'ana',
      password_secret: secrets.encrypt('pw-ana'),
      quota: 0,
      job_id: null,
      created_at: now(),
    });
    await ensureZone(opened.store, { settings: dnsSettings(opened.config) }, item.id, reference);
    for (const id of [...jobs, mailbox]) await doneJob(id);

    // The customer's files on web1: a page, and a message in the mailbox.
    const webRoot = (name: NodeName) => path.join(nodes[name].dir, 'www', reference);
    writeFileSync(path.join(webRoot('web1'), 'public', 'index.html'), 'hello from the moved site\n');
    const home = (name: NodeName) => path.join(String(nodes[name].dovecot.options.mailRoot), reference, 'ana');
    mkdirSync(path.join(home('web1'), 'Maildir', 'new'), { recursive: true });
    mkdirSync(path.join(home('web1'), 'Maildir', 'cur'), { recursive: true });
    mkdirSync(path.join(home('web1'), 'Maildir', 'tmp'), { recursive: true });
    writeFileSync(
      path.join(home('web1'), 'Maildir', 'new', '1700000000.M1P1.node'),
      'From: eva@example.test\r\nTo: ana@moved.test\r\nSubject: kept\r\n\r\nthe message that moves\r\n',
    );
    spawnSync('chown', ['-R', '65534:65534', path.join(String(nodes.web1.dovecot.options.mailRoot), reference)]);
    await eventually(async () => (await served('web1', `www.${reference}`)).includes('hello from the moved site'), 15_000, 'web1 serving');
    expect(await imapFirstMessage(nodes.web1.dovecot.imapPort, `ana@${reference}`, 'pw-ana', nodes.web1.net.address)).toContain(
      'the message that moves',
    );

    const cli = launch('cli', ['service-move', reference, '--to', 'web2', '--wait'], env());
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toMatch(/Moving moved\.test to web2: job (\d+)/);
    expect(cli.output()).toContain('Moved moved.test to web2');
    const moveJob = Number(/job (\d+)/.exec(cli.output())?.[1]);
    expect(await job(moveJob)).toMatchObject({ status: 'done', progress: 100, node_id: expect.any(Number) });

    // web2 serves the same page and the same mailbox.
    await eventually(async () => (await served('web2', `www.${reference}`)).includes('hello from the moved site'), 15_000, 'web2 serving');
    expect(await imapFirstMessage(nodes.web2.dovecot.imapPort, `ana@${reference}`, 'pw-ana', nodes.web2.net.address)).toContain(
      'the message that moves',
    );
    // web1 holds nothing of it: no host, no files, no mailbox.
    await eventually(async () => (await served('web1', `www.${reference}`)).endsWith('\n404'), 15_000, 'web1 answering 404');
    expect(siteFiles('web1').filter((f) => f.includes(`site-${site.id}`))).toEqual([]);
    expect(existsSync(webRoot('web1'))).toBe(false);
    expect(existsSync(home('web1'))).toBe(false);
    expect(passwd('web1')).not.toContain(`@${reference}`);
    expect(passwd('web2')).toContain(`ana@${reference}:`);
    // The records the panel serves point at web2; the item is placed there.
    const apex = await opened.store
      .selectFrom('dns_record')
      .select('value')
      .where('item_id', '=', item.id)
      .where('zona', '=', '')
      .where('type', '=', 'A')
      .executeTakeFirstOrThrow();
    expect(apex.value).toBe(nodes.web2.net.address);
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

  it('refuses to move a service to the node it is on, or to a node that does not exist', async () => {
    const same = launch('cli', ['service-move', 'moved.test', '--to', 'web2'], env());
    expect(await same.exited).not.toBe(0);
    expect(same.output()).toContain('moved.test is on web2 already');
    const none = launch('cli', ['service-move', 'moved.test', '--to', 'web9'], env());
    expect(await none.exited).not.toBe(0);
    expect(none.output()).toContain('No node named web9');
  });
});
