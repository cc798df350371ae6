export * from './common';
export * from './demo';
export * from './internal-context';
export * from './roles';
