/** Schemas, code tables and limits of the dns area, shared by the web forms and the routes. */
export {};
