import { z } from 'zod';
import { bulkAnswerSchema, bulkSchema } from '../domain/bulk.ts';
import {
  contactsSaveSchema,
  countryLookupSchema,
  dnsEditSchema,
  dnssecCreateSchema,
  glueCreateSchema,
  glueSaveSchema,
  ownerSaveSchema,
  renewalModeSchema,
  renewSchema,
  transferRequestSchema,
} from '../domain/schemas.ts';
import {
  countryLookupAnswerSchema,
  dnsInitSchema,
  dnssecInitSchema,
  dnssecRecordSchema,
  domainAnswerSchema,
  glueRecordSchema,
  transferViewSchema,
} from '../domain/types.ts';
import { endpoint, itemParams, SIGNED_IN } from './endpoint.ts';

const glueParams = z.object({ id: z.string(), recordId: z.string() });
const dnssecParams = z.object({ id: z.string(), dnssecId: z.string() });
const bulkParams = z.object({ bulkId: z.string() });
/** A change queued for the registry: its id (the domain answer's `changes` says where it stands). */
const queued = z.object({ change: z.number() });
const done = z.object({});
/** A call that answers a credential: a session's only (decision 029). */
const credential = { sessionOnly: true } as const;

/** The domain calls: data, toggles, auth code, name servers, glue, DNSSEC, contacts. */
export const domain = {
  get: endpoint({
    method: 'GET',
    path: '/domain/:id/',
    params: itemParams,
    answer: domainAnswerSchema,
    permission: { area: 'domain', level: 'read' },
  }),
  /** Block and whois privacy are "others"; the transfer block has its own area. */
  toggle: endpoint({
    method: 'GET',
    path: '/domain/:id/toggle/:toggle/',
    params: z.object({ id: z.string(), toggle: z.string() }),
    answer: domainAnswerSchema,
    permission: { anyOf: ['domain_others', 'domain_transferblock'], level: 'write' },
  }),
  /**
   * An auth code is a credential (decision 051, after 029): it is revealed only to a session that
   * writes the area, never to an API token, and each reveal is recorded in the activity log. The
   * domain answer says whether one is set (`hasAuthCode`).
   */
  authcode: endpoint({
    method: 'GET',
    path: '/domain/:id/authcode/',
    params: itemParams,
    answer: z.object({ authCode: z.string() }),
    permission: { area: 'domain_authcode', level: 'write' },
    ...credential,
  }),
  /**
   * Registers at its registry a domain the panel has but the registry has not (decision 051): a
   * purchase, queued for the registry and billed once when it is applied. Never a side effect of a read.
   */
  register: endpoint({
    method: 'POST',
    path: '/domain/:id/register/',
    params: itemParams,
    answer: domainAnswerSchema,
    permission: { area: 'domain', level: 'write' },
  }),
  renew: endpoint({
    method: 'POST',
    path: '/domain/:id/renew/',
    params: itemParams,
    body: renewSchema,
    answer: domainAnswerSchema,
    permission: { area: 'domain', level: 'write' },
  }),
  renewal: endpoint({
    method: 'POST',
    path: '/domain/:id/renewal/',
    params: itemParams,
    body: renewalModeSchema,
    answer: domainAnswerSchema,
    permission: { area: 'domain', level: 'write' },
  }),
  /** RFC 3915 restore of a domain in redemption. */
  restore: endpoint({
    method: 'POST',
    path: '/domain/:id/restore/',
    params: itemParams,
    answer: domainAnswerSchema,
    permission: { area: 'domain', level: 'write' },
  }),
  /** A new auth code replacing the old one (RFC 9154); the old one stops working at once. */
  authcodeRegenerate: endpoint({
    method: 'POST',
    path: '/domain/:id/authcode/regenerate/',
    params: itemParams,
    answer: z.object({ authCode: z.string() }),
    permission: { area: 'domain_authcode', level: 'write' },
    // It answers the new code: a credential, as the reveal is.
    ...credential,
  }),
  /** The domain's transfer, in or out, as the registry reports it. */
  transfer: endpoint({
    method: 'GET',
    path: '/domain/:id/transfer/',
    params: itemParams,
    answer: transferViewSchema,
    permission: { area: 'domain', level: 'read' },
  }),
  /** A transfer in: the auth code the current registrar gave; the request goes to the registry through the outbox. */
  transferRequest: endpoint({
    method: 'POST',
    path: '/domain/:id/transfer/request/',
    params: itemParams,
    body: transferRequestSchema,
    answer: transferViewSchema,
    permission: { area: 'domain', level: 'write' },
  }),
  /** Takes back this panel's pending request. */
  transferCancel: endpoint({
    method: 'POST',
    path: '/domain/:id/transfer/cancel/',
    params: itemParams,
    answer: transferViewSchema,
    permission: { area: 'domain', level: 'write' },
  }),
  /** The answer to another registrar's request: lets the domain go now, or keeps it. */
  transferApprove: endpoint({
    method: 'POST',
    path: '/domain/:id/transfer/approve/',
    params: itemParams,
    answer: transferViewSchema,
    permission: { area: 'domain_authcode', level: 'write' },
  }),
  transferReject: endpoint({
    method: 'POST',
    path: '/domain/:id/transfer/reject/',
    params: itemParams,
    answer: transferViewSchema,
    permission: { area: 'domain_authcode', level: 'write' },
  }),
  transferkey: endpoint({
    method: 'GET',
    path: '/domain/:id/transferkey/',
    params: itemParams,
    answer: z.object({ transferkey: z.string() }),
    permission: { area: 'domain_authcode', level: 'write' },
    ...credential,
  }),
  nameServers: endpoint({
    method: 'GET',
    path: '/domains/:id/dnsinit/',
    params: itemParams,
    answer: dnsInitSchema,
    permission: { area: 'domain_dns', level: 'read' },
  }),
  saveNameServers: endpoint({
    method: 'POST',
    path: '/domain/:id/dnsedit/',
    params: itemParams,
    body: dnsEditSchema,
    answer: z.object({ servers: z.array(z.string()) }),
    permission: { area: 'domain_dns', level: 'write' },
  }),
  glueList: endpoint({
    method: 'GET',
    path: '/domain/:id/gluerecord/list/',
    params: itemParams,
    answer: z.object({ gluerecords: z.array(glueRecordSchema) }),
    permission: { area: 'domain_gluerecords', level: 'read' },
  }),
  glueCreate: endpoint({
    method: 'POST',
    path: '/domain/:id/gluerecord/create/',
    params: itemParams,
    body: glueCreateSchema,
    answer: queued,
    permission: { area: 'domain_gluerecords', level: 'write' },
  }),
  glueSave: endpoint({
    method: 'POST',
    path: '/domain/:id/gluerecord/:recordId/save/',
    params: glueParams,
    body: glueSaveSchema,
    answer: queued,
    permission: { area: 'domain_gluerecords', level: 'write' },
  }),
  glueDelete: endpoint({
    method: 'GET',
    path: '/domain/:id/gluerecord/:recordId/delete/',
    params: glueParams,
    answer: queued,
    permission: { area: 'domain_gluerecords', level: 'write' },
  }),
  dnssecList: endpoint({
    method: 'GET',
    path: '/domain/:id/dnssec/list/',
    params: itemParams,
    answer: z.object({ dnssec: z.array(dnssecRecordSchema) }),
    permission: { area: 'domain_dnssec', level: 'read' },
  }),
  dnssecInit: endpoint({
    method: 'GET',
    path: '/domain/:id/dnssec/createinit/',
    params: itemParams,
    answer: dnssecInitSchema,
    permission: { area: 'domain_dnssec', level: 'read' },
  }),
  dnssecCreate: endpoint({
    method: 'POST',
    path: '/domain/:id/dnssec/create/',
    params: itemParams,
    body: dnssecCreateSchema,
    answer: queued,
    permission: { area: 'domain_dnssec', level: 'write' },
  }),
  dnssecDelete: endpoint({
    method: 'GET',
    path: '/domain/:id/dnssec/:dnssecId/delete/',
    params: dnssecParams,
    answer: queued,
    permission: { area: 'domain_dnssec', level: 'write' },
  }),
  ownerSave: endpoint({
    method: 'POST',
    path: '/domain/:id/owner/save/',
    params: itemParams,
    body: ownerSaveSchema,
    answer: done,
    permission: { area: 'domain_ownercontacts', level: 'write' },
  }),
  contactsSave: endpoint({
    method: 'POST',
    path: '/domain/:id/contacts/save/',
    params: itemParams,
    body: contactsSaveSchema,
    answer: done,
    permission: { area: 'domain_contacts', level: 'write' },
  }),
  /**
   * One action over many domains of the list: each id is checked with its single call's permission
   * (skipped when not held, not found when not visible), the rest queued for the registry.
   */
  bulk: endpoint({ method: 'POST', path: '/domain/bulk/', body: bulkSchema, answer: bulkAnswerSchema, permission: SIGNED_IN }),
  /** A bulk action's progress and each domain's result; only its author's. */
  bulkGet: endpoint({ method: 'GET', path: '/domain/bulk/:bulkId/', params: bulkParams, answer: bulkAnswerSchema, permission: SIGNED_IN }),
  /** The bulk action's failed domains, checked and queued again. */
  bulkRetry: endpoint({
    method: 'POST',
    path: '/domain/bulk/:bulkId/retry/',
    params: bulkParams,
    answer: bulkAnswerSchema,
    permission: SIGNED_IN,
  }),
  /** The address lookup of the contact form. */
  country: endpoint({
    method: 'POST',
    path: '/tools/country/',
    body: countryLookupSchema,
    answer: countryLookupAnswerSchema,
    permission: SIGNED_IN,
  }),
};
