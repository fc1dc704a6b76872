import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.ts';
import { enrolAgent, runAgent } from './agent.ts';

/**
 * `npm run agent -- --dir <state dir> [--panel https://panel:port --enrol <token>]`: enrols once
 * with the token `node-add` printed, then (and on every later start) runs the node's agent. Its
 * drivers come from the same configuration file as the panel's (ATALAYA_CONFIG), never a store.
 */
async function main() {
  const { values } = parseArgs({
    options: { panel: { type: 'string' }, enrol: { type: 'string' }, dir: { type: 'string' } },
    strict: true,
  });
  if (!values.dir) throw new ConfigError('--dir <agent state directory> is needed');
  if (values.enrol) {
    if (!values.panel) throw new ConfigError('--panel https://<panel>:<nodes port> is needed to enrol');
    const node = await enrolAgent(values.panel, values.enrol, values.dir);
    console.log(`Enrolled as node ${node}`);
  }
  const stop = runAgent(values.dir, loadConfig());
  const shutdown = () => {
    stop();
    process.exit(0);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((error) => {
  console.error(`Error: ${(error as Error).message}`);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
