/**
 * Mailed exports shared by the case and user services: the threshold check,
 * the 202 answer with its job, and the job's store-and-mail step.
 */
export * from './mailed-export';
export { tenantDomain, tenantOrigin } from './tenant-origin';
