import { parseArgs } from 'node:util';
import { AccountError } from '../modules/provisioning/account-error.ts';
import { COMMANDS, usage } from './commands.ts';

const HELP = new Set(['help', '--help', '-h']);

/** `npm run admin -- <command> [args] [--options]`: the operator's provisioning tool. */
async function main(argv: string[]) {
  const [name, ...rest] = argv;
  // The README sends operators to `help`; asked for, the usage is an answer (stdout, exit 0), not an error.
  if (name === undefined || HELP.has(name)) {
    console.log(usage());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  const { values, positionals } = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
  const required = command.args.filter((a) => !a.endsWith('?')).length;
  if (positionals.length < required || positionals.length > command.args.length) {
    console.error(`Usage: npm run admin -- ${name} ${command.args.map((a) => `<${a}>`).join(' ')}\n${command.help}`);
    return 2;
  }
  // Only now the store and the runtime, and below the command's own modules: `help` or a mistyped
  // command answers without loading them (decision 056).
  const [{ loadConfig }, { openStore }, { createRuntime }] = await Promise.all([
    import('../config/config.ts'),
    import('../store/db.ts'),
    import('../runtime.ts'),
  ]);
  const config = loadConfig();
  const store = await openStore(config);
  try {
    const runtime = createRuntime(config, store);
    if (name === 'seed-demo') {
      const { seedDemoIfEmpty } = await import('../demo/seed.ts');
      const demo = await seedDemoIfEmpty(runtime);
      console.log(
        demo
          ? `Demo seeded: realm ${demo.realm}, users demo and viewer, password ${demo.password}`
          : 'The store is not empty: nothing seeded',
      );
    } else {
      const given = values as Record<string, string | boolean | undefined>;
      await command.run(runtime, positionals, given);
      const activity = typeof command.activity === 'function' ? command.activity(positionals, given) : command.activity;
      if (activity) {
        const { recordCommand } = await import('./activity.ts');
        await recordCommand(store, name, { args: command.args, activity }, positionals, given);
      }
    }
    await runtime.close();
    // A command that ran but did not do all it was asked (node-restore --wait) sets the exit code itself.
    return Number(process.exitCode ?? 0);
  } finally {
    await store.destroy();
  }
}

/** The operator's mistake (said as is, exit code 2) rather than a fault; the classes are loaded by then if thrown. */
async function isMistake(error: unknown) {
  const [{ NodeError }, { ConfigError }] = await Promise.all([import('../nodes/nodes.ts'), import('../config/config.ts')]);
  return (
    error instanceof AccountError ||
    error instanceof NodeError ||
    error instanceof ConfigError ||
    Boolean((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
  );
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error) => {
    if (await isMistake(error)) {
      console.error(`Error: ${(error as Error).message}`);
      process.exit(2);
    }
    console.error(error);
    process.exit(1);
  },
);
