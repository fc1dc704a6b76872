/** Schemas, code tables and limits of the domain area, shared by the web forms and the routes. */

export * from './domain/bulk.ts';
export * from './domain/codes.ts';
export * from './domain/postalCodes.ts';
export * from './domain/schemas.ts';
export * from './domain/types.ts';
export * from './domain/validators.ts';
