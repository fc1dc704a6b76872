import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { panelCa } from '../../src/nodes/ca.ts';
import { addNode } from '../../src/nodes/nodes.ts';
import { createSecrets, sealingKey } from '../../src/secrets.ts';
import { freePort, removeDir, tempDir } from '../backends/harness/common.ts';
import { type DovecotHarness, startDovecot } from '../backends/harness/dovecot.ts';
import { NGINX, runNginx } from '../backends/harness/nginx.ts';
import { type PureFtpdHarness, startPureFtpd } from '../backends/harness/pureftpd.ts';
import { exec } from '../backends/http.ts';
import type { openTestStore } from '../stores.ts';
import { type NodeNetwork, nodeNetwork } from './network.ts';
import { type Launched, launch } from './processes.ts';

export interface TestNode {
  net: NodeNetwork;
  dir: string;
  httpPort: number;
  nginx: { stop(): Promise<void> };
  dovecot: DovecotHarness;
  ftp: PureFtpdHarness;
  agent?: Launched;
}

export interface Cluster {
  panel: Launched;
  nodes: Record<string, TestNode>;
  startAgent(name: string, token?: string): Launched;
  stopAgent(name: string): Promise<void>;
  /** What the node's nginx answers for a host: its body, then a line with the HTTP status. */
  served(name: string, host: string): Promise<string>;
  /** The node's web root of a service. */
  webRoot(name: string, reference: string): string;
  stop(): Promise<void>;
}

/**
 * The panel and its nodes as docs/deploy.md#nodes-hosting-on-other-machines sets them up, for the
 * tests and the bench: each node in a network namespace of its own (a veth pair; an address of its
 * own on loopback where the machine allows no namespaces), with its own nginx and Dovecot listening
 * on the node's address and its own web roots, nginx files, passwd-file and mail root; its agent
 * runs inside the node's namespace, so the nginx it reloads is the node's. The panel listens for
 * agents on every address, its certificate made for the addresses the nodes reach it by; each
 * node is registered with its address and enrolled.
 */
export async function startCluster(
  opened: Awaited<ReturnType<typeof openTestStore>>,
  names: string[],
  panelEnv: Record<string, string> = {},
  panelSettings: Record<string, unknown> = {},
  /** More drivers for every agent's configuration (a databases driver, say). */
  agentDrivers: Record<string, unknown> = {},
): Promise<Cluster> {
  const nodes: Record<string, TestNode> = {};
  // What has started so far, stopped in reverse order: by stop(), or at once when the start fails.
  const started: (() => unknown)[] = [];
  const stopAll = async () => {
    for (const node of Object.values(nodes)) node.agent?.child.kill('SIGKILL');
    for (const stop of started.splice(0).reverse()) await stop();
  };
  try {
    return await start();
  } catch (error) {
    await stopAll();
    throw error;
  }

  async function start(): Promise<Cluster> {
    for (const [i, name] of names.entries()) {
      const net = nodeNetwork(i + 1);
      started.push(() => net.remove());
      const dir = await tempDir(`node-${name}`);
      started.push(() => removeDir(dir));
      const httpPort = await freePort();
      const nginxDir = path.join(dir, 'nginx');
      mkdirSync(nginxDir);
      const nginx = await runNginx(nginxDir, {
        connections: 256,
        port: httpPort,
        host: net.address,
        wrap: net.wrap,
        http: [
          '  types { text/html html; text/plain txt; }',
          `  server { listen ${net.address}:${httpPort} default_server; return 404; }`,
          `  include ${path.join(nginxDir, 'atalaya', 'sites')}/*.conf;`,
        ],
      });
      started.push(() => nginx.stop());
      const dovecot = await startDovecot(undefined, { host: net.address, wrap: net.wrap });
      started.push(() => dovecot.stop());
      const webRoot = path.join(dir, 'www');
      const ftp = await startPureFtpd({ host: net.address, wrap: net.wrap, homesRoot: webRoot });
      started.push(() => ftp.stop());
      nodes[name] = { net, dir, httpPort, nginx, dovecot, ftp };
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
        hosting: { webRoot },
        drivers: {
          sites,
          web: { driver: 'nginx' },
          mail: { driver: 'dovecot', ...dovecot.options },
          ftp: { driver: 'pureftpd', ...ftp.options },
          ...agentDrivers,
        },
      };
      writeFileSync(path.join(dir, 'agent.json'), JSON.stringify(agentConfig));
    }
    const env = { ATALAYA_DATA_DIR: opened.config.dataDir, DATABASE_URL: opened.config.databaseUrl ?? '' };
    const panelConfig = path.join(opened.config.dataDir, 'panel.json');
    writeFileSync(
      panelConfig,
      JSON.stringify({ ...panelSettings, nodes: { hosts: ['127.0.0.1', ...names.map((n) => nodes[n]!.net.panelAddress)] } }),
    );
    const panel = launch('server', [], {
      ...env,
      ATALAYA_CONFIG: panelConfig,
      PORT: '0',
      HOST: '127.0.0.1',
      ATALAYA_NODES_PORT: '0',
      ...panelEnv,
    });
    started.push(() => panel.child.kill('SIGKILL'));
    const panelPort = (await panel.waitFor(/Hosting nodes connect at https:\/\/[^:]+:(\d+)\//, 60_000))[1];

    const startAgent = (name: string, token?: string) => {
      const node = nodes[name]!;
      node.agent = launch(
        'agent',
        [
          '--dir',
          path.join(node.dir, 'state'),
          ...(token ? ['--panel', `https://${node.net.panelAddress}:${panelPort}`, '--enrol', token] : []),
        ],
        { ATALAYA_CONFIG: path.join(node.dir, 'agent.json'), ATALAYA_DATA_DIR: node.dir },
        node.net.wrap,
      );
      return node.agent;
    };
    const ca = await panelCa(opened.store, createSecrets(sealingKey(opened.config)));
    await Promise.all(
      names.map(async (name) => {
        const token = await addNode(opened.store, ca, name, ['web', 'mail', 'ftp'], name, nodes[name]!.net.address);
        await startAgent(name, token).waitFor(new RegExp(`connected to .* as ${name}`), 60_000);
      }),
    );

    return {
      panel,
      nodes,
      startAgent,
      async stopAgent(name) {
        nodes[name]!.agent?.child.kill('SIGTERM');
        await nodes[name]!.agent?.exited;
        nodes[name]!.agent = undefined;
      },
      served: (name, host) =>
        exec('/usr/bin/curl', [
          '-sS',
          '--max-time',
          '5',
          '-w',
          '\n%{http_code}',
          '--resolve',
          `${host}:${nodes[name]!.httpPort}:${nodes[name]!.net.address}`,
          `http://${host}:${nodes[name]!.httpPort}/`,
        ]).then((r) => r.stdout),
      webRoot: (name, reference) => path.join(nodes[name]!.dir, 'www', reference),
      stop: stopAll,
    };
  }
}
