/** Schemas, code tables and limits of the domain area, shared by the web forms and the routes. */
export {};
