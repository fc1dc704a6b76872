import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createItem, createRealm } from '../../src/modules/provisioning/accounts.ts';
import { insertChild } from '../../src/modules/service/jobs.ts';
import { panelCa } from '../../src/nodes/ca.ts';
import { addNode, removeNode } from '../../src/nodes/nodes.ts';
import { createSecrets, sealingKey } from '../../src/secrets.ts';
import { now } from '../../src/store/db.ts';
import { describeStores, openTestStore } from '../stores.ts';
import { eventually, type Launched, launch } from './processes.ts';

/**
 * The panel and two agents as separate processes (decision 040), each agent with its own state
 * directory and its own Dovecot passwd-file and mail root, written by the real dovecot driver and
 * checked on disk (no daemon per agent: the file is what Dovecot reads). Both on loopback, on the
 * panel's node port.
 */
describeStores('hosting nodes driven through their agents on %s', (kind) => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let panel: Launched;
  let panelUrl: string;
  let httpPort: number;
  const agents: Record<string, Launched | undefined> = {};
  const dirs: Record<string, string> = {};
  const items: Record<string, number> = {};
  const nodeIds: Record<string, number> = {};
  let secrets: ReturnType<typeof createSecrets>;

  const env = () => ({ ATALAYA_DATA_DIR: opened.config.dataDir, DATABASE_URL: opened.config.databaseUrl ?? '' });
  const passwd = (node: string) => {
    const file = path.join(dirs[node], 'passwd');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  };

  function startAgent(node: string, token?: string) {
    const agent = launch('agent', ['--dir', path.join(dirs[node], 'state'), ...(token ? ['--panel', panelUrl, '--enrol', token] : [])], {
      ATALAYA_CONFIG: path.join(dirs[node], 'config.json'),
      ATALAYA_DATA_DIR: dirs[node],
    });
    agents[node] = agent;
    return agent;
  }
  async function stopAgent(node: string, signal: NodeJS.Signals = 'SIGTERM') {
    const agent = agents[node];
    agent?.child.kill(signal);
    await agent?.exited;
    agents[node] = undefined;
  }
  const job = (id: number) => opened.store.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const doneJob = (id: number, ms = 40_000) => eventually(async () => (await job(id)).status === 'done', ms, `job ${id} done`);
  const mailbox = (node: string, name: string, quota = 0) =>
    insertChild(opened.store, 'mail_account', items[node], {
      item_id: items[node],
      name,
      password_secret: secrets.encrypt(`pw-${name}`),
      quota,
      job_id: null,
      created_at: now(),
    });
  /** A client speaking the agent protocol with the given files (or no certificate at all). */
  function rawClient(certOf?: string) {
    const state = certOf ? path.join(dirs[certOf], 'state') : undefined;
    return new WebSocket(`${panelUrl.replace('https', 'wss')}/agent`, {
      ca: readFileSync(path.join(dirs.web1, 'state', 'panel-ca.crt')),
      ...(state ? { key: readFileSync(path.join(state, 'node.key')), cert: readFileSync(path.join(state, 'node.crt')) } : {}),
    });
  }
  const refusal = (ws: WebSocket) =>
    new Promise<string>((resolve) => {
      ws.on('unexpected-response', (_req, res) => resolve(`HTTP ${res.statusCode}`));
      ws.on('open', () => resolve('open'));
      ws.on('error', (error) => resolve(`error ${error.message}`));
    });

  beforeAll(async () => {
    opened = await openTestStore(kind);
    const realm = `nodes-${kind}.test`;
    // A store with a realm is not seeded with the demo when the panel starts.
    await createRealm(opened.store, realm);
    panel = launch('server', [], { ...env(), PORT: '0', HOST: '127.0.0.1', ATALAYA_NODES_PORT: '0', ATALAYA_JOB_LEASE_SECONDS: '3' });
    const port = (await panel.waitFor(/Hosting nodes connect at https:\/\/[^:]+:(\d+)\//, 60_000))[1];
    httpPort = Number((await panel.waitFor(/Atalaya is running at http:\/\/localhost:(\d+)\//))[1]);
    panelUrl = `https://127.0.0.1:${port}`;
    secrets = createSecrets(sealingKey(opened.config));
    for (const node of ['web1', 'web2']) {
      dirs[node] = mkdtempSync(path.join(tmpdir(), `atalaya-${node}-`));
      // OpenDKIM's tables in the node's own directory, with no daemon to reload (as in the Dovecot harness).
      const mail = {
        driver: 'dovecot',
        passwdFile: path.join(dirs[node], 'passwd'),
        mailRoot: path.join(dirs[node], 'vmail'),
        dkimDir: path.join(dirs[node], 'dkim'),
        dkimReload: [],
      };
      // web1 hashes slowly, so a test can kill its agent while a job is on its way.
      // (Seconds, not milliseconds: on a quiet machine a shorter hash ended before the kill.)
      const cost = node === 'web1' ? { hashMemoryKiB: 65536, hashTime: 48 } : { hashMemoryKiB: 8192, hashTime: 1 };
      writeFileSync(path.join(dirs[node], 'config.json'), JSON.stringify({ drivers: { mail: { ...mail, ...cost } } }));
    }
    // web1 through the operator's command, web2 as the command does it.
    const cli = launch('cli', ['node-add', 'web1', '--roles', 'web,mail'], env());
    const token1 = (await cli.waitFor(/--enrol (\S+)/, 60_000))[1];
    const token2 = await addNode(opened.store, await panelCa(opened.store, secrets), 'web2', ['mail']);
    await Promise.all([
      startAgent('web1', token1).waitFor(/connected to .* as web1/, 60_000),
      startAgent('web2', token2).waitFor(/connected to .* as web2/, 60_000),
    ]);
    for (const node of ['web1', 'web2']) {
      items[node] = (await createItem(opened.store, { realm, reference: `${node}.example.test`, mail: true, node })).id;
      nodeIds[node] = (await opened.store.selectFrom('node').select('id').where('name', '=', node).executeTakeFirstOrThrow()).id;
    }
  }, 180_000);

  afterAll(async () => {
    for (const node of Object.keys(agents)) agents[node]?.child.kill('SIGKILL');
    panel?.child.kill('SIGKILL');
    await opened.cleanup();
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
  });

  it('applies a job of an item placed on web2 with web2 agent, and web1 never sees it', async () => {
    const { job: id } = await mailbox('web2', 'ana');
    expect((await job(id)).node_id).toBe(nodeIds.web2);
    await doneJob(id);
    expect(passwd('web2')).toContain('ana@web2.example.test:');
    expect(passwd('web1')).not.toContain('ana@');
    // The job is done once the agent answers; its log line may follow a moment later.
    await eventually(
      async () => Boolean(agents.web2?.output().includes(`applied mail.ensureMailbox for job ${id}`)),
      10_000,
      'the agent to log the call',
    );
    expect(agents.web2?.output()).toContain(`applied mail.ensureMailbox for job ${id}`);
    expect(agents.web1?.output()).not.toContain(`for job ${id}\n`);
  });

  it('keeps a job for web2 waiting while its agent is stopped, then applies its jobs in commit order when it is back', {
    timeout: 90_000,
  }, async () => {
    await stopAgent('web2');
    const ids = [(await mailbox('web2', 'b1')).job, (await mailbox('web2', 'b2')).job, (await mailbox('web2', 'b3')).job];
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const id of ids) expect(await job(id)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(passwd('web2')).not.toContain('b1@');
    const agent = startAgent('web2');
    for (const id of ids) await doneJob(id);
    const applied = () => [...agent.output().matchAll(/applied mail\.ensureMailbox for job (\d+)/g)].map((m) => Number(m[1]));
    // A job is done on the panel as soon as the agent answers; the agent's log line may come a moment after.
    await eventually(async () => applied().length >= ids.length, 10_000, 'the agent to log each call');
    expect(applied()).toEqual(ids);
    for (const name of ['b1', 'b2', 'b3']) expect(passwd('web2')).toContain(`${name}@web2.example.test:`);
  });

  it('ends with the change applied once when the agent is killed with SIGKILL in the middle of the job', { timeout: 90_000 }, async () => {
    const { job: id } = await mailbox('web1', 'kill');
    await eventually(async () => (await job(id)).status === 'running', 10_000, 'the job claimed');
    await new Promise((resolve) => setTimeout(resolve, 150));
    await stopAgent('web1', 'SIGKILL');
    expect((await job(id)).status).not.toBe('done');
    startAgent('web1');
    await doneJob(id, 40_000);
    expect(
      passwd('web1')
        .split('\n')
        .filter((line) => line.startsWith('kill@web1.example.test:')),
    ).toHaveLength(1);
  });

  it('lets a client with web1 certificate take and answer only web1 jobs, never web2 ones', { timeout: 90_000 }, async () => {
    await Promise.all([stopAgent('web1'), stopAgent('web2')]);
    const { job: theirs } = await mailbox('web2', 'theirs');
    const { job: ours } = await mailbox('web1', 'ours');
    const ws = rawClient('web1');
    const calls: { id: number; job: number }[] = [];
    ws.on('message', (data) => calls.push(JSON.parse(String(data))));
    await new Promise((resolve) => ws.on('open', resolve));
    ws.send(JSON.stringify({ type: 'hello', version: 'test', properties: {} }));
    await eventually(async () => calls.length > 0, 10_000, 'a call');
    // Answers for calls never sent on this link (web2's job is never sent) are ignored.
    for (let id = 100; id < 105; id++) ws.send(JSON.stringify({ type: 'result', id, ok: true }));
    ws.send(JSON.stringify({ type: 'result', id: calls[0].id, ok: true }));
    await doneJob(ours);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(calls.map((c) => c.job)).toEqual([ours]);
    expect(await job(theirs)).toMatchObject({ status: 'pending', attempts: 0 });
    ws.close();
  });

  it('closes the connection of a node that sends what is not the protocol, logs it, and goes on serving', { timeout: 90_000 }, async () => {
    const frames: [string, string | Buffer][] = [
      ['null', 'null'],
      ['a number', '42'],
      ['wrong fields', JSON.stringify({ type: 'result', id: 'one', ok: 'yes' })],
      ['a hello without its properties', JSON.stringify({ type: 'hello', version: 'test' })],
      ['invalid JSON', '{"type": "hello",'],
      ['a frame past the size limit', Buffer.alloc(17 * 1024 * 1024, 0x20)],
    ];
    for (const [what, frame] of frames) {
      const mark = panel.output().length;
      const ws = rawClient('web1');
      await new Promise((resolve) => ws.on('open', resolve));
      const closed = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the panel kept the connection open after ${what}`)), 10_000);
        ws.on('close', () => resolve(clearTimeout(timer)));
      });
      ws.on('error', () => {});
      ws.send(frame);
      await closed;
      expect(panel.child.exitCode, what).toBeNull();
      if (typeof frame === 'string') await panel.waitFor(/the agent sent a message that is not the protocol.*"node":"web1"/, 10_000, mark);
    }
    // The panel still answers its HTTP port, and web1's real agent connects and applies its jobs.
    expect((await fetch(`http://127.0.0.1:${httpPort}/p247/captcha/`)).status).toBe(200);
    const agent = startAgent('web1');
    await agent.waitFor(/connected to .* as web1/);
    await doneJob((await mailbox('web1', 'after')).job);
    await stopAgent('web1');
  });

  it('refuses a connection without a certificate, and a removed node certificate at once', { timeout: 90_000 }, async () => {
    expect(await refusal(rawClient())).toBe('HTTP 403');
    const agent = startAgent('web1');
    await agent.waitFor(/connected to .* as web1/);
    const mark = agent.output().length;
    await removeNode(opened.store, 'web1', true);
    await agent.waitFor(/the panel refused web1 \(HTTP 403\)/, 10_000, mark);
    expect(await refusal(rawClient('web1'))).toBe('HTTP 403');
  });

  it('lists the nodes with roles, state, agent version, last contact and jobs waiting, without a removed one', async () => {
    const cli = launch('cli', ['nodes'], env());
    expect(await cli.exited).toBe(0);
    const lines = cli.output().trim().split('\n');
    expect(lines[0]).toBe('name\thost\troles\tstate\tversion\tlast contact\tjobs waiting\titems');
    // web2's agent is stopped with the job "theirs" waiting; web1 was removed.
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^web2\tweb2\tmail\tactive\t1\t\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\t1\t1$/)]);
  });

  it('refuses the old machine of a removed web1 once web1 is added again: its certificate is not the new one, and it gets none of its jobs', {
    timeout: 90_000,
  }, async () => {
    // The old machine keeps its validly signed certificate for "web1" (in dirs.web1); the new web1 enrols from a directory of its own.
    dirs.web1new = mkdtempSync(path.join(tmpdir(), 'atalaya-web1new-'));
    const mail = { driver: 'dovecot', passwdFile: path.join(dirs.web1new, 'passwd'), mailRoot: path.join(dirs.web1new, 'vmail') };
    const dkim = { dkimDir: path.join(dirs.web1new, 'dkim'), dkimReload: [], hashMemoryKiB: 8192, hashTime: 1 };
    writeFileSync(path.join(dirs.web1new, 'config.json'), JSON.stringify({ drivers: { mail: { ...mail, ...dkim } } }));
    const token = await addNode(opened.store, await panelCa(opened.store, secrets), 'web1', ['web', 'mail']);
    const agent = startAgent('web1new', token);
    await agent.waitFor(/connected to .* as web1/, 60_000);
    const realm = `nodes-${kind}.test`;
    items.web1new = (await createItem(opened.store, { realm, reference: 'web1-again.example.test', mail: true, node: 'web1' })).id;

    const old = rawClient('web1');
    const calls: unknown[] = [];
    old.on('message', (data) => calls.push(JSON.parse(String(data))));
    old.on('open', () => old.send(JSON.stringify({ type: 'hello', version: 'old', properties: {} })));
    expect(await refusal(old)).toBe('HTTP 403');
    const { job: id } = await mailbox('web1new', 'nueva');
    await doneJob(id);
    // The job is done once the agent answers; its log line may follow a moment later.
    await eventually(
      async () => Boolean(agent.output().includes(`applied mail.ensureMailbox for job ${id}`)),
      10_000,
      'the agent to log the call',
    );
    expect(agent.output()).toContain(`applied mail.ensureMailbox for job ${id}`);
    expect(passwd('web1new')).toContain('nueva@web1-again.example.test:');
    expect(calls).toEqual([]);
  });
});
