export * from './account.ts';
export * from './dns.ts';
export * from './domain.ts';
export * from './envelope.ts';
export * from './messages/index.ts';
export * from './permissions.ts';
export * from './service.ts';
export * from './settings.ts';
