import type { z } from 'zod';
import {
  operatorCreatedSchema,
  operatorDomainAnswerSchema,
  operatorDomainCheckAnswerSchema,
  operatorDomainCheckSchema,
  operatorDomainRegisterSchema,
  operatorDomainRenewSchema,
  operatorDomainTransferAnswerSchema,
  operatorDomainTransferSchema,
  operatorDoneSchema,
  operatorFactorsResetSchema,
  operatorGrantSchema,
  operatorItemAnswerSchema,
  operatorItemCreateSchema,
  operatorItemDeleteSchema,
  operatorItemSchema,
  operatorLimitsSchema,
  operatorPasswordSchema,
  operatorRealmDeleteSchema,
  operatorRealmSchema,
  operatorRealmStateSchema,
  operatorTerminationSchema,
  operatorUserAnswerSchema,
  operatorUserCreateSchema,
  operatorUserSchema,
  operatorWebhookCreatedSchema,
  operatorWebhookCreateSchema,
  operatorWebhookListSchema,
  operatorWebhookParams,
} from '../operator.ts';
import { endpoint } from './endpoint.ts';

const PROVISION = { operator: 'provision' } as const;
const DOMAINS = { operator: 'domains' } as const;
const WEBHOOKS = { operator: 'webhooks' } as const;
const post = <B extends z.ZodType, A extends z.ZodType, W extends typeof PROVISION | typeof DOMAINS | typeof WEBHOOKS>(
  path: string,
  body: B,
  answer: A,
  permission: W,
) => endpoint({ method: 'POST', path: `/operator/${path}`, body, answer, permission });

/**
 * The operator API for billing systems (decision 037): only an operator token reaches these, each
 * write takes an Idempotency-Key, and every one does what the admin CLI's command of the same name does.
 */
export const operator = {
  realmCreate: post('realm/create/', operatorRealmSchema, operatorCreatedSchema, PROVISION),
  realmSuspend: post('realm/suspend/', operatorRealmSchema, operatorRealmStateSchema, PROVISION),
  realmUnsuspend: post('realm/unsuspend/', operatorRealmSchema, operatorRealmStateSchema, PROVISION),
  realmDelete: post('realm/delete/', operatorRealmDeleteSchema, operatorTerminationSchema, PROVISION),
  userCreate: post('user/create/', operatorUserCreateSchema, operatorUserAnswerSchema, PROVISION),
  userPassword: post('user/password/', operatorPasswordSchema, operatorUserAnswerSchema, PROVISION),
  userFactorsReset: post('user/factors/reset/', operatorUserSchema, operatorFactorsResetSchema, PROVISION),
  itemCreate: post('item/create/', operatorItemCreateSchema, operatorItemAnswerSchema, PROVISION),
  itemSuspend: post('item/suspend/', operatorItemSchema, operatorItemAnswerSchema, PROVISION),
  itemUnsuspend: post('item/unsuspend/', operatorItemSchema, operatorItemAnswerSchema, PROVISION),
  itemDelete: post('item/delete/', operatorItemDeleteSchema, operatorTerminationSchema, PROVISION),
  grant: post('grant/', operatorGrantSchema, operatorDoneSchema, PROVISION),
  serviceLimits: post('service/limits/', operatorLimitsSchema, operatorDoneSchema, PROVISION),
  domainCheck: endpoint({
    method: 'GET',
    path: '/operator/domain/check/',
    query: operatorDomainCheckSchema,
    answer: operatorDomainCheckAnswerSchema,
    permission: DOMAINS,
  }),
  domainRegister: post('domain/register/', operatorDomainRegisterSchema, operatorDomainAnswerSchema, DOMAINS),
  domainRenew: post('domain/renew/', operatorDomainRenewSchema, operatorDomainAnswerSchema, DOMAINS),
  domainTransfer: post('domain/transfer/', operatorDomainTransferSchema, operatorDomainTransferAnswerSchema, DOMAINS),
  webhookList: endpoint({ method: 'GET', path: '/operator/webhooks/', answer: operatorWebhookListSchema, permission: WEBHOOKS }),
  webhookCreate: post('webhooks/create/', operatorWebhookCreateSchema, operatorWebhookCreatedSchema, WEBHOOKS),
  webhookDelete: endpoint({
    method: 'POST',
    path: '/operator/webhooks/:webhookId/delete/',
    params: operatorWebhookParams,
    answer: operatorDoneSchema,
    permission: WEBHOOKS,
  }),
};
