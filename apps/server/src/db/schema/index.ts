// The whole schema, as drizzle-kit and the relational query builder see it.
export * from './audit.js';
export * from './auth.js';
export * from './devices.js';
export * from './documents.js';
export * from './iot.js';
export * from './organisations.js';
export * from './prescriptions.js';
export * from './relations.js';
export * from './users.js';
