import { endpoints, type Language, translate } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { recordActivity } from '../activity/record.ts';
import { confirmTotp, registerPasskey, removeFactor } from '../factors/enrol.ts';
import { listFactors } from '../factors/factors.ts';
import { registrationOptions, relyingParty } from '../factors/passkeys.ts';
import { newRecoveryCodes, recoveryCodesLeft } from '../factors/recovery.ts';
import { factorRequired } from '../factors/required.ts';
import { sealToken } from '../factors/tokens.ts';
import { newTotpSecret, otpauthUri } from '../factors/totp.ts';
import type { SessionUser } from '../permission/caller.ts';
import { setSessionCookie } from './cookie.ts';
import { createMailer } from './mailer.ts';
import { reauthenticate } from './reauth.ts';
import { tellHolder } from './security-notice.ts';
import { signInSecondStep } from './signin-second.ts';
import { signInContext } from './signin-session.ts';

/** The sign-in's second step and the Preferences calls of second factors (decision 021). */
export default async function factorRoutes(app: FastifyInstance) {
  const { store, config, secrets } = app.runtime;
  // The second step may end an unfamiliar sign-in, whose notice goes by mail, as do the changes of factors.
  const mailer = createMailer(config);
  const factorContext = (request: FastifyRequest) => ({ store, secrets, ip: request.ip });
  const accountName = (user: SessionUser) => `${user.username}@${user.realmName}`;

  route(app, endpoints.factors.secondStep, async (request, reply) => {
    const { token, answer } = await signInSecondStep(signInContext(app, request, mailer), request.body);
    setSessionCookie(request, reply, token);
    return { data: answer };
  });

  route(app, endpoints.factors.list, async (request) => {
    const user = request.user!;
    const realm = await store
      .selectFrom('realm')
      .select(['name', 'require_second_factor'])
      .where('id', '=', user.realmId)
      .executeTakeFirstOrThrow();
    return {
      data: {
        factors: await listFactors(store, user.id),
        recoveryCodesLeft: await recoveryCodesLeft(store, user.id),
        required: factorRequired(config, realm),
      },
    };
  });

  // Nothing is stored yet: the secret travels sealed in the token until a first code confirms it.
  // The token is handed out only after re-authentication: a stolen session cannot add a factor.
  route(app, endpoints.factors.totpStart, async (request) => {
    const user = request.user!;
    await reauthenticate(factorContext(request), user, request.body, 'factor_add');
    const secret = newTotpSecret();
    const uri = otpauthUri(secret, config.company.name, accountName(user));
    // Loaded on first use, like the WebAuthn library: enrolment is rare.
    const { default: QRCode } = await import('qrcode');
    const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
    const { token } = sealToken(secrets, 'totp-enrol', user.id, { secret });
    return { data: { secret, uri, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`, token } };
  });

  route(app, endpoints.factors.totpConfirm, async (request) => {
    const user = request.user!;
    const name = translate(user.language as Language, 'factors.totp_name');
    const data = await confirmTotp(factorContext(request), user, request.body, name);
    await tellHolder(app, request, mailer, 'factor_added');
    return { data, info: [{ key: 'factors.totp_added' }] };
  });

  route(app, endpoints.factors.passkeyOptions, async (request) => {
    const user = request.user!;
    await reauthenticate(factorContext(request), user, request.body, 'factor_add');
    const rp = relyingParty(request);
    const options = await registrationOptions(store, user, rp, config.company.name);
    const { token } = sealToken(secrets, 'passkey-enrol', user.id, { challenge: options.challenge, rpID: rp.rpID });
    return { data: { options: options as unknown as Record<string, unknown>, token } };
  });

  route(app, endpoints.factors.passkeyRegister, async (request) => {
    const data = await registerPasskey(factorContext(request), request.user!, request.body, relyingParty(request));
    await tellHolder(app, request, mailer, 'factor_added');
    return { data, info: [{ key: 'factors.passkey_added' }] };
  });

  route(app, endpoints.factors.rename, async (request) => {
    const { id, name } = request.body;
    const result = await store
      .updateTable('second_factor')
      .set({ name })
      .where('id', '=', id)
      .where('user_id', '=', request.user!.id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw notFound();
    return { data: null, info: [{ key: 'factors.renamed' }] };
  });

  route(app, endpoints.factors.remove, async (request) => {
    const user = request.user!;
    const owned = await store
      .selectFrom('second_factor')
      .select('id')
      .where('id', '=', request.body.id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!owned) throw notFound();
    await reauthenticate(factorContext(request), user, request.body, 'factor_remove');
    if (!(await removeFactor(factorContext(request), user, request.body.id))) throw notFound();
    await tellHolder(app, request, mailer, 'factor_removed');
    return { data: null, info: [{ key: 'factors.removed' }] };
  });

  route(app, endpoints.factors.recoveryCodes, async (request) => {
    const user = request.user!;
    await reauthenticate(factorContext(request), user, request.body, 'recovery_codes');
    const codes = await newRecoveryCodes(store, user.id);
    await recordActivity(store, {
      action: 'recovery_codes',
      outcome: 'success',
      userId: user.id,
      realmId: user.realmId,
      ip: request.ip,
    });
    await tellHolder(app, request, mailer, 'recovery_codes');
    return { data: { codes }, info: [{ key: 'factors.recovery_created' }] };
  });
}
