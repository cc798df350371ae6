export * from './processor';
export * from './secret-box';
export * from './stripe/stripe-connector';
export { stageOf, toProcessorDispute, DISPUTE_EVENTS } from './stripe/dispute-mapping';
/** The official SDK itself, for the stand-in's fixtures (its types) and tests (signing test events). */
export { default as StripeSdk } from 'stripe';
