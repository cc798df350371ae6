import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv, varsUsedBy } from './env';

describe('loadEnv', () => {
  it('fills defaults and converts types', () => {
    const env = loadEnv(['gateway'], {});
    expect(env.PORT).toBe(8080);
    expect(env.NODE_ENV).toBe('development');
    expect(env.REDIS_URL).toBeUndefined();
    expect(loadEnv(['gateway'], { PORT: '9000' }).PORT).toBe(9000);
  });

  it('stops with a message naming the variable and the value', () => {
    expect(() => loadEnv(['gateway'], { PORT: 'eighty' })).toThrow(EnvError);
    expect(() => loadEnv(['gateway'], { PORT: 'eighty' })).toThrow(/PORT: .*got 'eighty'/);
    expect(() => loadEnv(['case'], { DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadEnv(['gateway'], { REDIS_URL: 'localhost:6379' })).toThrow(/REDIS_URL/);
  });

  it('ignores variables the process does not read', () => {
    expect(() => loadEnv(['gateway'], { SEED_SCALE: 'huge' })).not.toThrow();
    expect(() => loadEnv(['migrate'], { SEED_SCALE: 'huge' })).toThrow(/SEED_SCALE/);
  });

  it('requires the production secrets in production', () => {
    const error = (() => {
      try {
        loadEnv(['user'], { NODE_ENV: 'production' });
      } catch (e) {
        return e as EnvError;
      }
    })();
    expect(error?.problems.join('\n')).toMatch(/DATABASE_URL: must be set/);
    expect(error?.problems.join('\n')).toMatch(/JWT_PRIVATE_KEY_FILE: must be set/);
    expect(error?.problems.join('\n')).toMatch(/INTERNAL_CONTEXT_SECRET: must be set/);
  });

  it('marks the refresh cookie Secure by default in production only (issue 27.E)', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/portal',
      REDIS_URL: 'redis://cache:6379',
      JWT_PRIVATE_KEY_FILE: '/run/secrets/jwt.pem',
      INTERNAL_CONTEXT_SECRET: 'x'.repeat(32),
    };
    expect(loadEnv(['user'], production).COOKIE_SECURE).toBe(true);
    expect(loadEnv(['user'], { ...production, COOKIE_SECURE: 'false' }).COOKIE_SECURE).toBe(false);
    expect(loadEnv(['user'], {}).COOKIE_SECURE).toBe(false);
  });

  it('drains 5 s before closing in production, not at all in development and tests', () => {
    const production = {
      NODE_ENV: 'production',
      REDIS_URL: 'redis://cache:6379',
      INTERNAL_CONTEXT_SECRET: 'x'.repeat(32),
    };
    expect(loadEnv(['gateway'], production).DRAIN_SECONDS).toBe(5);
    expect(loadEnv(['gateway'], { ...production, DRAIN_SECONDS: '0' }).DRAIN_SECONDS).toBe(0);
    expect(loadEnv(['gateway'], {}).DRAIN_SECONDS).toBe(0);
    expect(loadEnv(['gateway'], { NODE_ENV: 'test' }).DRAIN_SECONDS).toBe(0);
    expect(loadEnv(['case'], { DRAIN_SECONDS: '2' }).DRAIN_SECONDS).toBe(2);
    expect(() => loadEnv(['gateway'], { DRAIN_SECONDS: '-1' })).toThrow(/DRAIN_SECONDS/);
    expect(varsUsedBy(['worker'])).not.toContain('DRAIN_SECONDS');
  });

  it('knows which process reads which variable', () => {
    expect(varsUsedBy(['gateway'])).toContain('TRUST_PROXY');
    expect(varsUsedBy(['gateway'])).not.toContain('DATABASE_URL');
    expect(varsUsedBy(['docs'])).toContain('S3_BUCKET');
  });
});
