import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * No network call inside a database transaction (DESIGN.md §13, PITFALLS.md).
 *
 * A transaction held open across a call to another service pins a connection
 * on Postgres, and on the embedded PGlite (one connection shared by every
 * service of `npm start`) it stalls until the call's timeout whenever the
 * other service needs the database (onboarding waited 10 s, issue 28). Read
 * what you need before the transaction, or enqueue a job in it.
 *
 * The db layer's `transaction()` runs its callback inside a mark kept in
 * AsyncLocalStorage (outside production); the service client and the mailer
 * check it before every call and throw. The mark is switched off once the
 * callback settles, so work started inside a transaction that runs after it
 * (a fire-and-forget publish) is not refused.
 */
interface TransactionMark {
  open: boolean;
  readonly db: string;
}

const marks = new AsyncLocalStorage<TransactionMark>();

/** Runs fn marked as "inside a database transaction" until it settles. */
export async function runMarkedAsTransaction<T>(db: string, fn: () => Promise<T>): Promise<T> {
  const mark: TransactionMark = { open: true, db };
  try {
    return await marks.run(mark, fn);
  } finally {
    mark.open = false;
  }
}

/** True while the caller runs inside the callback of a guarded `transaction()`. */
export function insideTransaction(): boolean {
  return marks.getStore()?.open === true;
}

/** The error every network call made inside a transaction gets. */
export class CallInTransactionError extends Error {
  /** `call` names the kind of call: 'service call', 'mail'. */
  constructor(target: string, db: string, call = 'service call') {
    super(
      `${call} to ${target} inside a database transaction: the ${db} transaction would stay open across ` +
        'a network call (on the embedded PGlite it waits for its own connection until the call times out). ' +
        'Read what you need before the transaction, or enqueue a job in it (DESIGN.md §13).',
    );
    this.name = 'CallInTransactionError';
  }
}

/**
 * Throws when called inside a guarded transaction. Every service-to-service
 * call goes through this check (ServiceClient.request and any raw fetch to
 * another service), and every Mailer.send (call 'mail'; queue it with
 * enqueueMail of @portal/jobs instead); `target` names the call, e.g.
 * `POST http://user/users/users`.
 */
export function assertNotInTransaction(target: string, call?: string): void {
  const mark = marks.getStore();
  if (mark?.open) throw new CallInTransactionError(target, mark.db, call);
}
