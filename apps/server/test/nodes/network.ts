import { spawnSync } from 'node:child_process';

/**
 * Where one node of a test lives on the network (decision 047): its own network namespace joined
 * to the test's by a veth pair when the machine allows it (root, `ip netns`), else an address of
 * its own on loopback. Its agent and daemons run with `wrap` in front of their command.
 */
export interface NodeNetwork {
  /** The node's address: its daemons listen there and the test reaches them there. */
  address: string;
  /** The panel's address as the node reaches it. */
  panelAddress: string;
  /** The command prefix that runs a program inside the node's network ([] on loopback). */
  wrap: string[];
  kind: 'namespace' | 'loopback';
  remove(): void;
}

const ip = (...args: string[]) => spawnSync('ip', args, { encoding: 'utf8' });

/**
 * The node network number `n` (1, 2…) of this test process. A namespace `atl<pid>n<n>` holds one
 * end of the veth pair (`10.<a>.<n>.2/24`, with its own loopback up), the test's side keeps the
 * other (`10.<a>.<n>.1`, the panel's address for it); `a` comes from the process id, so two test
 * processes on one machine do not share a subnet.
 */
export function nodeNetwork(n: number): NodeNetwork {
  const tag = `${process.pid % 100000}n${n}`;
  const ns = `atl${tag}`;
  const outside = `av${tag}`;
  const inside = `aw${tag}`;
  const a = 100 + (process.pid % 150);
  const host = `10.${a}.${n}.1`;
  const node = `10.${a}.${n}.2`;
  const steps: string[][] = [
    ['netns', 'add', ns],
    ['link', 'add', outside, 'type', 'veth', 'peer', 'name', inside],
    ['link', 'set', inside, 'netns', ns],
    ['addr', 'add', `${host}/24`, 'dev', outside],
    ['link', 'set', outside, 'up'],
    ['netns', 'exec', ns, 'ip', 'addr', 'add', `${node}/24`, 'dev', inside],
    ['netns', 'exec', ns, 'ip', 'link', 'set', inside, 'up'],
    ['netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up'],
  ];
  const remove = () => {
    ip('link', 'del', outside);
    ip('netns', 'del', ns);
  };
  for (const step of steps) {
    if (ip(...step).status !== 0) {
      remove();
      // No namespaces here (not root, or no `ip`): an address of the node's own on loopback.
      const address = `127.0.0.${1 + n}`;
      return { address, panelAddress: '127.0.0.1', wrap: [], kind: 'loopback', remove: () => {} };
    }
  }
  return { address: node, panelAddress: host, wrap: ['ip', 'netns', 'exec', ns], kind: 'namespace', remove };
}
