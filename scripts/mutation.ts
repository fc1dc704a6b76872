/**
 * `npm run mutation [module …]`: StrykerJS over the modules that guard customers, one module at a
 * time with the tests aimed at it, then the mutation score of each module (decision 020).
 *
 * Incremental: each module keeps its last results in .tmp/mutation/<module>/incremental.json, so a
 * rerun tests only the mutants of changed code or tests. Reports: .tmp/mutation/<module>/index.html.
 * Names on the command line run those modules only; the table still lists every module's last score.
 * A module names the functions it mutates (scripts/source-ranges.ts finds their lines in today's
 * source); `--ranges` prints the lines each module resolves to.
 * The tests run on SQLite (ATALAYA_TEST_PG is emptied): the PostgreSQL half doubles the time and
 * reaches the same code of these modules, except in modules marked `postgres`, run on both stores.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import base from '../stryker.config.mjs';
import { linesBut, linesOf } from './source-ranges.ts';

const T = 'apps/server/test';
const S = 'apps/server/src';

interface Module {
  name: string;
  title: string;
  mutate: string[];
  tests: string[];
  /** Runs the tests on PostgreSQL too: for code only PostgreSQL reaches. */
  postgres?: boolean;
}

export const MODULES: Module[] = [
  {
    name: 'outbox',
    title: 'outbox claim and retry',
    // Without the code only PostgreSQL reaches (the next module): the worker's sleep until the next
    // due job (`arm`) and its NOTIFY wake-up (`unlisten`); of claim.ts, the claim's SET and the
    // search both stores run.
    mutate: [
      ...linesBut(`${S}/outbox/outbox.ts`, 'arm', 'unlisten'),
      ...linesOf(`${S}/outbox/claim.ts`, 'claimSet', 'forNode', 'bits', 'firstClaimable'),
    ],
    tests: [`${T}/outbox.test.ts`, `${T}/outbox-workers.test.ts`],
  },
  {
    name: 'outbox-postgres',
    title: "outbox's PostgreSQL claim and wake-up",
    // The claim's two branches (one per store), the PostgreSQL re-check and nextDue, which only a
    // worker woken by NOTIFY asks: its tests run on both stores, so ATALAYA_TEST_PG must be set.
    mutate: [
      ...linesOf(`${S}/outbox/claim.ts`, 'ITEM_LOCK', 'claimable', 'claimJobs', 'nextDue'),
      ...linesOf(`${S}/outbox/outbox.ts`, 'arm', 'unlisten'),
    ],
    tests: [`${T}/outbox.test.ts`, `${T}/outbox-workers.test.ts`],
    postgres: true,
  },
  {
    name: 'certificates',
    title: 'certificate checks',
    mutate: [`${S}/modules/sites/certificates.ts`],
    tests: [`${T}/sites/certificates.test.ts`, `${T}/sites/subdomains.test.ts`],
  },
  {
    name: 'dns-rules',
    title: 'DNS rules',
    mutate: [`${S}/modules/dns/rules.ts`],
    tests: [`${T}/dns/rules.test.ts`],
  },
  {
    name: 'paths',
    title: 'path containment',
    // names.ts holds the containment every real backend and the installer use. The FTP home check of
    // pureftpd.ts is left to its test against the real daemon: each login there costs a second.
    mutate: [`${S}/drivers/real/common/names.ts`],
    tests: [`${T}/backends/names.test.ts`, `${T}/installer/installer.test.ts`],
  },
  {
    name: 'guard',
    title: 'CSRF and origin guard',
    mutate: [`${S}/http/guard.ts`],
    // origin: the names the panel answers to (the Host check against DNS rebinding); tokens: the
    // bearer calls (tokenCall); factors: the enrolment-only gate of a realm that requires one.
    tests: [
      `${T}/envelope.test.ts`,
      `${T}/origin.test.ts`,
      `${T}/account/default-deny.test.ts`,
      `${T}/account/tokens.test.ts`,
      `${T}/account/factors.test.ts`,
    ],
  },
  {
    name: 'sessions',
    title: 'sessions',
    mutate: [`${S}/modules/session/sessions.ts`, `${S}/modules/session/auth-cache.ts`],
    // tokens: a token's caller is read with the session's columns and cut to its scope (itemAccess);
    // factors: `mustEnrol`, computed with the caller.
    tests: [
      `${T}/account/session.test.ts`,
      `${T}/account/auth-cache.test.ts`,
      `${T}/account/tokens.test.ts`,
      `${T}/account/factors.test.ts`,
    ],
  },
  {
    name: 'policy',
    title: 'permission policy',
    mutate: [`${S}/modules/permission/policy.ts`],
    tests: [`${T}/account/policy.test.ts`, `${T}/account/permission.test.ts`, `${T}/ids.test.ts`],
  },
  {
    name: 'sign-in',
    title: 'sign-in',
    mutate: [`${S}/modules/account/signin.ts`, `${S}/modules/account/credentials.ts`, `${S}/modules/factors/signin-second.ts`],
    // factors: the second step a user with a factor gets instead of a session, and the enrolment answer;
    // activity: the notice of a sign-in from a new address or browser.
    tests: [
      `${T}/account/signin.test.ts`,
      `${T}/account/credentials.test.ts`,
      `${T}/account/factors.test.ts`,
      `${T}/activity/activity.test.ts`,
    ],
  },
  {
    name: 'rate-limits',
    title: 'rate limits',
    mutate: [`${S}/modules/account/ratelimit.ts`],
    tests: [`${T}/account/ratelimit.test.ts`, `${T}/account/ratelimit-store.test.ts`],
  },
  {
    name: 'authorize',
    title: "each area's authorize-and-load",
    mutate: [
      `${S}/modules/permission/access.ts`,
      `${S}/modules/service/access.ts`,
      `${S}/modules/domain/access.ts`,
      `${S}/modules/dns/access.ts`,
      `${S}/modules/sites/access.ts`,
    ],
    tests: [
      `${T}/service/mail.test.ts`,
      `${T}/service/service.test.ts`,
      `${T}/service/ftp.test.ts`,
      `${T}/sites/subdomains.test.ts`,
      `${T}/sites/installer.test.ts`,
      `${T}/domain/info.test.ts`,
      `${T}/domain/contacts.test.ts`,
      `${T}/dns/api.test.ts`,
      `${T}/account/route-entry.test.ts`,
      `${T}/service/credentials.test.ts`,
      `${T}/service/retry.test.ts`,
    ],
  },
];

const dirOf = (m: Module) => `.tmp/mutation/${m.name}`;
const reportOf = (m: Module) => `${dirOf(m)}/mutation.json`;

// `--ranges`: print the lines each module mutates, with the first and last line of each, and stop.
if (process.argv.includes('--ranges')) {
  for (const m of MODULES) {
    console.log(`${m.name}:`);
    for (const entry of m.mutate) {
      const [, file, from, to] = /^(.*?)(?::(\d+)-(\d+))?$/.exec(entry) ?? [];
      if (from === undefined) {
        console.log(`  ${file} (whole file)`);
        continue;
      }
      const lines = readFileSync(file, 'utf8').split('\n');
      console.log(`  ${entry}\n    ${lines[Number(from) - 1].trim()}\n    … ${lines[Number(to) - 1].trim()}`);
    }
  }
  process.exit(0);
}

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !MODULES.some((m) => m.name === name));
if (unknown.length) {
  console.error(`unknown module ${unknown.join(', ')}; the modules are: ${MODULES.map((m) => m.name).join(', ')}`);
  process.exit(2);
}

let failed = false;
for (const m of MODULES.filter((m) => !asked.length || asked.includes(m.name))) {
  console.log(`\n▶ mutation testing: ${m.title} (${m.mutate.join(', ')})`);
  // Without PostgreSQL its half of the tests is skipped and every PostgreSQL-only mutant would show as uncovered.
  const pg = process.env.ATALAYA_TEST_PG ?? '';
  if (m.postgres && !pg) {
    console.error(`✗ ${m.title}: needs ATALAYA_TEST_PG (its code runs on PostgreSQL only)`);
    failed = true;
    continue;
  }
  mkdirSync(dirOf(m), { recursive: true });
  const config = `${dirOf(m)}/stryker.json`;
  writeFileSync(
    config,
    JSON.stringify({
      ...base,
      mutate: m.mutate,
      incrementalFile: `${dirOf(m)}/incremental.json`,
      htmlReporter: { fileName: `${dirOf(m)}/index.html` },
      jsonReporter: { fileName: reportOf(m) },
    }),
  );
  const run = spawnSync('node_modules/.bin/stryker', ['run', config], {
    stdio: 'inherit',
    env: { ...process.env, ATALAYA_TEST_PG: m.postgres ? pg : '', ATALAYA_MUTATION_TESTS: m.tests.join(',') },
  });
  if (run.status !== 0) {
    console.error(`✗ ${m.title}: Stryker exited with ${run.status ?? run.signal}`);
    failed = true;
  }
}

interface Mutant {
  status: string;
  location: { start: { line: number }; end: { line: number } };
}

/**
 * Whether a mutant of the report is the module's: within one of its `file:from-to` lines, or anywhere
 * in a file named whole. Stryker's report keeps the results of the incremental file for mutants
 * outside today's ranges (a range moved to another module stays listed), so they are left out here.
 */
function inModule(m: Module, file: string, mutant: Mutant) {
  return m.mutate.some((entry) => {
    const [, path, from, to] = /^(.*?)(?::(\d+)(?::\d+)?-(\d+)(?::\d+)?)?$/.exec(entry) ?? [];
    if (path !== file) return false;
    if (from === undefined) return true;
    return mutant.location.start.line >= Number(from) && mutant.location.end.line <= Number(to);
  });
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
console.log('\nMutation score per module (killed or timed out, of all but ignored mutants):');
for (const m of MODULES) {
  if (!existsSync(reportOf(m))) {
    console.log(`      -   ${m.title.padEnd(32)} not run yet (npm run mutation -- ${m.name})`);
    continue;
  }
  const files: Record<string, { mutants: Mutant[] }> = JSON.parse(readFileSync(reportOf(m), 'utf8')).files;
  const mutants = Object.entries(files).flatMap(([file, f]) => f.mutants.filter((x) => inModule(m, file, x)));
  const detected = mutants.filter((x) => DETECTED.has(x.status)).length;
  const undetected = mutants.filter((x) => UNDETECTED.has(x.status)).length;
  const score = detected + undetected ? ((100 * detected) / (detected + undetected)).toFixed(1).padStart(5) : '  -  ';
  const other = mutants.length - detected - undetected;
  console.log(`  ${score} %  ${m.title.padEnd(32)} ${detected} detected, ${undetected} undetected, ${other} ignored or invalid`);
}
console.log('Reports: .tmp/mutation/<module>/index.html');
process.exit(failed ? 1 : 0);
