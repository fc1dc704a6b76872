import { X509Certificate } from 'node:crypto';
import { ACME_STEP_PROGRESS, type AcmeStep } from '@atalaya/contract';
import type { Authorization, Client } from 'acme-client';
import { acmeClient, acmeJobSignal } from '../../../drivers/acme/client.ts';
import { CaUnreachable } from '../../../drivers/acme/unreachable.ts';
import type { SiteState } from '../../../drivers/sites/interface.ts';
import type { Runtime } from '../../../kernel/runtime.ts';
import { type JobHandlers, withTimeLimit } from '../../../outbox/outbox.ts';
import { now } from '../../../store/db.ts';
import type { Job } from '../../../store/schema.ts';
import { enqueueApply, loadSiteState, siteKey } from '../state.ts';
import { AcmeRefusal } from './problems.ts';

export const ISSUE_JOB = 'sites.acme.issue';

/** When a certificate is renewed: once a third of its lifetime remains (Unix seconds). */
export function renewalAt(cert: X509Certificate): number {
  const from = cert.validFromDate.getTime() / 1000;
  const to = cert.validToDate.getTime() / 1000;
  return Math.floor(to - (to - from) / 3);
}

type Challenge = Authorization['challenges'][number];

/** The names a site's free certificate covers: its host, and the service's wildcard when asked. */
export const acmeNames = (host: string, reference: string, wildcard: boolean) => (wildcard ? [host, `*.${reference}`] : [host]);

/** The DNS zone the panel serves for the service's reference, or null (DNS-01 needs it). */
async function ourZone(runtime: Runtime, serviceId: number): Promise<boolean> {
  const zone = await runtime.store.selectFrom('dns_zone').select('item_id').where('item_id', '=', serviceId).executeTakeFirst();
  return zone !== undefined;
}

/**
 * Proves control of every name of the order: HTTP-01 through the sites driver, DNS-01 through the
 * DNS driver (every name of an order with a wildcard, or when preferred and the zone is ours). Answers are
 * withdrawn whatever happens; a refusal carries the server's reason for the name it concerns.
 */
async function validate(runtime: Runtime, client: Client, state: SiteState, authorizations: Authorization[], step: Step) {
  const { drivers, config } = runtime;
  const zone = (await ourZone(runtime, state.serviceId)) ? state.reference : null;
  // An order with a wildcard proves every name in the zone, so the site needs no address of its own yet.
  const allDns = authorizations.some((a) => a.wildcard) || (config.acme.challenge === 'dns-01' && zone !== null);
  const pending: { authz: Authorization; challenge: Challenge }[] = [];
  const txt = new Map<string, string[]>();
  const cleanups: (() => Promise<void>)[] = [];
  await step('challenge');
  try {
    for (const authz of authorizations) {
      if (authz.status === 'valid') continue; // the server remembers an earlier proof
      const dns = allDns;
      const wanted = dns ? 'dns-01' : 'http-01';
      const challenge = authz.challenges.find((c) => c.type === wanted);
      if (!challenge) throw new AcmeRefusal({ detail: `the server offers no ${wanted} challenge` }, authz.identifier.value);
      if (dns && zone === null)
        throw new AcmeRefusal({ detail: `${wanted} needs the DNS zone ${state.reference} in the panel` }, authz.identifier.value);
      const answer = await client.getChallengeKeyAuthorization(challenge);
      if (dns) {
        const name = `_acme-challenge.${authz.identifier.value}.`;
        txt.set(name, [...(txt.get(name) ?? []), answer]);
      } else {
        await drivers.sites.putChallenge(state.key, challenge.token, answer);
        cleanups.push(() => drivers.sites.removeChallenge(state.key, challenge.token));
      }
      pending.push({ authz, challenge });
    }
    for (const [name, values] of txt) {
      cleanups.push(() => drivers.dns.setTxt(zone!, name, []));
      await drivers.dns.setTxt(zone!, name, values);
    }
    await step('validation');
    for (const { challenge } of pending) await client.completeChallenge(challenge);
    for (const { authz, challenge } of pending) {
      try {
        await client.waitForValidStatus(challenge);
      } catch (error) {
        // The challenge's own error object names the problem type; the thrown message only its detail.
        const fresh = (await client.getAuthorizations({ authorizations: [authz.url] } as never).catch(() => []))[0];
        const failed = fresh?.challenges.find((c) => c.type === challenge.type) as (Challenge & { error?: object }) | undefined;
        throw new AcmeRefusal(
          (failed?.error as { type?: string; detail?: string }) ?? { detail: (error as Error).message },
          authz.identifier.value,
        );
      }
    }
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
  }
}

type Step = (step: AcmeStep) => Promise<void>;

/**
 * Orders, proves, finalises and installs a site's free certificate. Installation goes through the
 * sites driver first (nginx checks and reloads the whole host, or puts every file back); only then
 * does the store take the new certificate, so a failure anywhere leaves the previous one served.
 */
export async function issueCertificate(runtime: Runtime, siteId: number, job: Job, step: Step): Promise<void> {
  const { store: db, secrets, drivers } = runtime;
  const row = await db.selectFrom('site').selectAll().where('id', '=', siteId).executeTakeFirst();
  // Deleted, switched off or asked again since: a newer job (or none) has the say.
  if (row?.acme_enabled !== 1 || row.acme_job_id !== job.id) return;
  const state = await loadSiteState(runtime, siteKey(siteId));
  if (!state) return;
  await step('order');
  const { client } = await runtime.acme.account();
  // The host must be served as the store holds it before a validation reaches it.
  await drivers.sites.applySite(state);
  const names = acmeNames(state.host, state.reference, row.acme_wildcard === 1);
  const order = await client.createOrder({ identifiers: names.map((value) => ({ type: 'dns', value })) });
  await validate(runtime, client, state, await client.getAuthorizations(order), step);

  await step('finalisation');
  const acme = await acmeClient();
  const key = (await acme.crypto.createPrivateEcdsaKey('P-256')).toString();
  const [, csr] = await acme.crypto.createCsr({ altNames: names }, key);
  const finalized = await client.finalizeOrder(order, csr);
  const [leaf, ...chain] = acme.crypto.splitPemChain(await client.getCertificate(finalized));

  await step('installation');
  const ssl = { cert: leaf.trim(), key: key.trim(), chain: chain.map((c) => c.trim()).join('\n') };
  await drivers.sites.applySite({ ...state, ssl });
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('site')
      .set({
        ssl_enabled: 1,
        cert: ssl.cert,
        cert_chain: ssl.chain,
        cert_key_sealed: secrets.encrypt(ssl.key),
        cert_source: 'acme',
        acme_error: null,
        acme_failures: 0,
        acme_renew_at: renewalAt(new X509Certificate(ssl.cert)),
        updated_at: now(),
      })
      .where('id', '=', siteId)
      .execute();
    // Anything applied meanwhile from the old row is brought in line with the new one.
    await enqueueApply(trx, state.serviceId, siteKey(siteId));
  });
}

/** An order, its validations and the installation; past it the order is abandoned and retried later. */
const ISSUE_TIME_LIMIT_SECONDS = 10 * 60;

/**
 * The issuance job: its progress is the step it is in; a refusal, or a CA that cannot be reached,
 * is stored on the site for the dialog. Its requests to the ACME server stop with the job's signal.
 */
export const issueJob = (runtime: Runtime): JobHandlers => ({
  [ISSUE_JOB]: withTimeLimit(ISSUE_TIME_LIMIT_SECONDS, async (raw, job, progress, signal) => {
    const siteId = Number((raw as { siteId?: unknown }).siteId);
    try {
      await acmeJobSignal.run(signal, () => issueCertificate(runtime, siteId, job, (step) => progress(ACME_STEP_PROGRESS[step])));
    } catch (error) {
      if (error instanceof AcmeRefusal || error instanceof CaUnreachable) {
        await runtime.store
          .updateTable('site')
          .set({ acme_error: JSON.stringify({ key: error.key, params: error.params }) })
          .where('id', '=', siteId)
          .where('acme_job_id', '=', job.id)
          .execute();
      }
      throw error;
    }
  }),
});
