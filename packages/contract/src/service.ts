/** Schemas, code tables and limits of the service area, shared by the web forms and the routes. */
export {};
