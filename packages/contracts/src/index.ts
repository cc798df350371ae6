export * from './auth';
export * from './common';
export * from './demo';
export * from './features';
export * from './internal-context';
export * from './profile';
export * from './roles';
export * from './tenant';
