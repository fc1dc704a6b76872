import type { Command } from './command.ts';

// Loaded by the command that needs them, as in commands.ts (decision 056): the CA alone is some 200 modules.
const nodes = () => import('../nodes/nodes.ts');

const iso = (seconds: number | null) => (seconds === null ? '-' : new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' '));

/** The operator's commands for hosting nodes (decision 040, docs/deploy.md#nodes-hosting-on-other-machines). */
export const NODE_COMMANDS: Record<string, Command> = {
  'node-add': {
    args: ['name'],
    help: 'Registers a hosting node with --roles web,mail,ftp,db (--host: the name customers use for it, default the node name; --address: its public IPv4, where the DNS records of its services point) and prints its one-time enrolment token (valid 24 hours).',
    options: { roles: { type: 'string' }, host: { type: 'string' }, address: { type: 'string' } },
    activity: {},
    run: async ({ store, secrets }, [name], values) => {
      const [{ addNode, ENROLMENT_SECONDS, parseRoles }, { panelCa }] = await Promise.all([nodes(), import('../nodes/ca.ts')]);
      const roles = parseRoles(typeof values.roles === 'string' ? values.roles : '');
      const host = typeof values.host === 'string' ? values.host : name;
      const address = typeof values.address === 'string' ? values.address : null;
      const token = await addNode(store, await panelCa(store, secrets), name, roles, host, address);
      console.log(`Node ${name} added (${roles.join(', ')}). Enrol its agent within ${ENROLMENT_SECONDS / 3600} hours, once:`);
      console.log(`  npm run agent -- --panel https://<panel>:<nodes.port> --dir /var/lib/atalaya-agent --enrol ${token}`);
    },
  },
  nodes: {
    args: [],
    help: 'Lists the nodes: roles, state, agent version, last contact, jobs waiting, items placed.',
    run: async ({ store }) => {
      const { listNodes } = await nodes();
      console.log('name\thost\troles\tstate\tversion\tlast contact\tjobs waiting\titems');
      for (const n of await listNodes(store)) {
        console.log(
          [n.name, n.host, n.roles, n.state, n.version ?? '-', iso(n.last_contact_at), Number(n.waiting), Number(n.items)].join('\t'),
        );
      }
    },
  },
  'node-drain': {
    args: ['name'],
    help: 'Stops placing new services on a node (its jobs still apply); --undo places on it again.',
    options: { undo: { type: 'boolean' } },
    activity: {},
    run: async ({ store }, [name], values) => {
      const { drainNode } = await nodes();
      await drainNode(store, name, Boolean(values.undo));
      console.log(values.undo ? `Node ${name} takes new services again` : `Node ${name} is draining: no new services go to it`);
    },
  },
  'node-remove': {
    args: ['name'],
    help: 'Removes a node: its agent certificate is refused at once. Refused while items are placed on it, unless --force.',
    options: { force: { type: 'boolean' } },
    activity: {},
    run: async ({ store }, [name], values) => {
      const { removeNode } = await nodes();
      await removeNode(store, name, Boolean(values.force));
      console.log(`Node ${name} removed: its agent is refused from now on`);
    },
  },
  'service-move': {
    args: ['reference'],
    help: 'Moves a service (its sites, mail, FTP accounts and databases) to the node --to: copied, its DNS records switched, removed from the old node, as one job; --wait follows its progress.',
    options: { to: { type: 'string' }, wait: { type: 'boolean' } },
    activity: {},
    run: async ({ store }, [reference], values) => {
      const [{ NodeError }, { queueMove }] = await Promise.all([nodes(), import('../modules/service/move.ts')]);
      if (typeof values.to !== 'string') throw new NodeError('--to <node> is needed');
      const job = await queueMove(store, reference, values.to);
      console.log(`Moving ${reference} to ${values.to}: job ${job}`);
      if (!values.wait) return;
      let shown = -1;
      for (;;) {
        const row = await store
          .selectFrom('job')
          .select(['status', 'progress', 'last_error'])
          .where('id', '=', job)
          .executeTakeFirstOrThrow();
        if (row.progress !== shown && row.status !== 'done') {
          shown = row.progress;
          console.log(`${row.status} ${row.progress}%${row.last_error ? ` (last error: ${row.last_error})` : ''}`);
        }
        if (row.status === 'done') return console.log(`Moved ${reference} to ${values.to}`);
        if (row.status === 'failed') throw new NodeError(`the move failed: ${row.last_error}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    },
  },
  'node-restore': {
    args: ['lost-node'],
    help: "Rebuilds every service of a lost node on the node --to from its latest backups (sites, mailboxes, databases, FTP accounts), points its DNS records there and leaves the lost node draining; one job per service, never calling the lost node's agent. --wait prints, once they end, what each service got back and what it could not.",
    options: { to: { type: 'string' }, wait: { type: 'boolean' } },
    activity: {},
    run: async ({ store }, [lost], values) => {
      const [{ NodeError }, { queueNodeRestore }, { nodeRestoreLines }] = await Promise.all([
        nodes(),
        import('../modules/backups/rebuild.ts'),
        import('./node-restore.ts'),
      ]);
      if (typeof values.to !== 'string') throw new NodeError('--to <node> is needed');
      const queued = await queueNodeRestore(store, lost, values.to);
      if (queued.length === 0) return console.log(`${lost} hosts no services: nothing to rebuild (it is draining now)`);
      for (const q of queued) console.log(`Rebuilding ${q.reference} on ${values.to}: job ${q.job}`);
      if (!values.wait) return;
      const lines = await nodeRestoreLines(store, queued);
      for (const line of lines.lines) console.log(line);
      if (!lines.whole) process.exitCode = 1;
    },
  },
};
