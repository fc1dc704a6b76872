/** Schemas, code tables and limits of the account area, shared by the web forms and the routes. */
export {};
