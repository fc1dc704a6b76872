import { describe, expect, it } from 'vitest';
import { EppFailure, refusalOf } from '../../src/drivers/registry/epp/errors.ts';
import type { EppResponse } from '../../src/drivers/registry/epp/response.ts';
import { RegistryError } from '../../src/drivers/registry/interface.ts';
import { ApiError, FieldErrors } from '../../src/http/errors.ts';
import { viaRegistry } from '../../src/modules/domain/refusals.ts';

const answer = (code: number, message = 'the registry says why'): EppResponse => ({
  code,
  message,
  clTRID: 'ATL-1',
  svTRID: 'SV-1',
  resData: undefined,
  extension: undefined,
  msgQ: null,
  xml: '',
});

describe('EPP result codes as the panel’s refusals', () => {
  it.each([
    [2201, 'authorization'],
    [2202, 'authorization'],
    [2302, 'exists'],
    [2303, 'not_found'],
    [2304, 'blocked'],
    [2305, 'in_use'],
    [2003, 'policy'],
    [2004, 'policy'],
    [2005, 'policy'],
    [2306, 'policy'],
    [2308, 'policy'],
  ])('%i becomes %s with the registry’s words and code', (code, kind) => {
    const error = refusalOf('domain:update', answer(code));
    expect(error).toBeInstanceOf(RegistryError);
    expect(error).toMatchObject({ code: kind, reason: 'the registry says why', result: code });
  });

  it.each([2000, 2001, 2002, 2101, 2307, 2400, 2502])('%i is a failure for the operator, not a refusal', (code) => {
    const error = refusalOf('domain:update', answer(code));
    expect(error).toBeInstanceOf(EppFailure);
    expect(error.message).toBe(`epp: domain:update failed with ${code} the registry says why`);
  });

  it('shows a policy refusal under the field with the registry’s reason', async () => {
    const error = await viaRegistry(() => Promise.reject(refusalOf('domain:update', answer(2306, 'too many DS records'))), 'digest').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FieldErrors);
    expect((error as FieldErrors).fields).toEqual([
      { input: 'digest', key: 'domain.registry_policy', params: { reason: 'too many DS records' } },
    ]);
  });

  it('shows an authorisation refusal and a status refusal in the toast with the registry’s reason, and the panel’s own block without one', async () => {
    const refused = (error: Error) => viaRegistry(() => Promise.reject(error)).catch((e: unknown) => e);
    expect(await refused(refusalOf('domain:info', answer(2201, 'not the sponsor')))).toMatchObject({
      status: 409,
      key: 'domain.registry_authorization',
      params: { reason: 'not the sponsor' },
    });
    expect(await refused(refusalOf('domain:update', answer(2304, 'serverUpdateProhibited')))).toMatchObject({
      status: 409,
      key: 'domain.registry_prohibited',
      params: { reason: 'serverUpdateProhibited' },
    });
    const own = await refused(new RegistryError('blocked'));
    expect(own).toBeInstanceOf(ApiError);
    expect(own).toMatchObject({ status: 409, key: 'domain.blocked' });
  });
});
