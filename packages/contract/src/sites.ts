/** Schemas, code tables and limits of the sites area, shared by the web forms and the routes. */
export {};
