export * from './envelope.ts';
export * from './permissions.ts';
export * from './settings.ts';
export * from './messages/index.ts';
