import { RegistryError } from '../../drivers/registry/interface.ts';
import { ApiError, FieldErrors, notFound } from '../../http/errors.ts';

/**
 * Runs a registry call and turns its refusals into the panel's: a blocked domain is a conflict
 * (409), a duplicate a field error on `field`, an unknown child id 404. A remote registry's own
 * words go with its refusals: under the field for a value it refuses, in the toast otherwise.
 */
export async function viaRegistry<T>(run: () => Promise<T>, field: string | ((subject: string) => string) = 'form'): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof RegistryError)) throw error;
    const input = typeof field === 'string' ? field : field(error.subject);
    switch (error.code) {
      case 'blocked':
        throw error.reason
          ? new ApiError(409, 'domain.registry_prohibited', { reason: error.reason })
          : new ApiError(409, 'domain.blocked');
      case 'policy':
        throw FieldErrors.one(input, 'domain.registry_policy', { reason: error.reason });
      case 'authorization':
        throw new ApiError(409, 'domain.registry_authorization', { reason: error.reason });
      case 'exists':
        throw FieldErrors.one(input, 'validation.duplicate');
      case 'in_use':
        throw new ApiError(409, 'domain.glue_in_use');
      case 'needs_glue':
        throw FieldErrors.one(input, 'domain.ns_needs_glue');
      default:
        throw notFound();
    }
  }
}
