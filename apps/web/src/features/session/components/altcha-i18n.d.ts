// altcha ships no declaration for its regional Spanish texts; the module only registers them.
declare module 'altcha/i18n/es-es';
