import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Db } from './db';
import { systemContext } from './internal-context';
import { ServiceClient } from './service-client';
import {
  assertNotInTransaction,
  CallInTransactionError,
  insideTransaction,
  runMarkedAsTransaction,
} from './tx-guard';

const SECRET = 'a-test-secret-that-is-long-enough-1234';
const ctx = systemContext('acme', 'req-guard');

describe('no service call inside a database transaction (issue 28)', () => {
  let server: Server;
  let calls = 0;
  let client: ServiceClient;
  let dir: string;
  let db: Db;
  let unguarded: Db;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      calls += 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new ServiceClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, SECRET);
    dir = mkdtempSync(join(tmpdir(), 'tx-guard-'));
    [db, unguarded] = await Promise.all([
      openPglite(join(dir, 'guarded')),
      openPglite(join(dir, 'unguarded'), { guardCalls: false }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await unguarded?.close();
    await new Promise((resolve) => server?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a service call outside a transaction goes out', async () => {
    const before = calls;
    await expect(client.request('POST', '/users/internal/usernames-taken', ctx, {})).resolves.toEqual({
      ok: true,
    });
    expect(calls).toBe(before + 1);
    expect(insideTransaction()).toBe(false);
  });

  it('a service call inside db.transaction throws a clear error, never reaches the other service, and rolls back', async () => {
    await db.query('create table if not exists t (n int)');
    const before = calls;
    const attempt = db.transaction(async (tx) => {
      await tx.query('insert into t values (1)');
      expect(insideTransaction()).toBe(true);
      return client.request('POST', '/users/internal/usernames-taken', ctx, {});
    });
    await expect(attempt).rejects.toBeInstanceOf(CallInTransactionError);
    await expect(attempt).rejects.toThrow(
      /^service call to POST http:\/\/127\.0\.0\.1:\d+\/users\/internal\/usernames-taken inside a database transaction: /,
    );
    expect(calls).toBe(before);
    expect((await db.query('select count(*)::int as n from t')).rows[0]).toEqual({ n: 0 });
  });

  it('the mark holds across awaits and nested async work inside the callback', async () => {
    const seen = await db.transaction(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return Promise.all([
        Promise.resolve().then(() => insideTransaction()),
        new Promise<boolean>((resolve) => setImmediate(() => resolve(insideTransaction()))),
      ]);
    });
    expect(seen).toEqual([true, true]);
  });

  it('work started in a transaction that runs after it has ended may call a service', async () => {
    let later: Promise<unknown> = Promise.resolve();
    await db.transaction(async () => {
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(() =>
        client.request('GET', '/after-commit', ctx),
      );
    });
    await expect(later).resolves.toEqual({ ok: true });
    expect(insideTransaction()).toBe(false);
  });

  it('the guard is off for a database opened with guardCalls: false (production)', async () => {
    await expect(unguarded.transaction(() => client.request('GET', '/in-production', ctx))).resolves.toEqual({
      ok: true,
    });
  });

  it('assertNotInTransaction is the one check (raw fetches to a service use it too)', async () => {
    expect(() => assertNotInTransaction('POST http://docs/upload')).not.toThrow();
    await expect(
      runMarkedAsTransaction('Postgres', async () => assertNotInTransaction('POST http://docs/upload')),
    ).rejects.toThrow('service call to POST http://docs/upload inside a database transaction: the Postgres');
  });
});
