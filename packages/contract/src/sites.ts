/** Schemas, code tables and limits of the sites area, shared by the web forms and the routes. */
export * from './sites/codes.ts';
export * from './sites/names.ts';
export * from './sites/schemas.ts';
export * from './sites/types.ts';
