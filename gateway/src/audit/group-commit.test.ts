import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';

/** A send whose answers the test gives, one batch at a time. */
function controlledSend() {
  const batches: string[][] = [];
  const answers: Array<(stored: boolean) => void> = [];
  const send = (batch: string[]) =>
    new Promise<boolean>((resolve) => {
      batches.push(batch);
      answers.push(resolve);
    });
  /** Waits until `n` batches were sent. */
  const sent = async (n: number) => {
    while (batches.length < n) await new Promise((resolve) => setImmediate(resolve));
  };
  return { batches, answers, send, sent };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('GroupCommit', () => {
  it('sends one batch at a time: what arrives meanwhile goes together in the next', async () => {
    const s = controlledSend();
    const commit = new GroupCommit<string>({ send: s.send, maxBatch: 500, fallback: () => {} });
    const first = [commit.add('a', 5000), commit.add('b', 5000)];
    await s.sent(1);
    const second = ['c', 'd', 'e'].map((x) => commit.add(x, 5000));
    await tick();
    // Nothing more goes out while the first batch is in flight.
    expect(s.batches).toEqual([['a', 'b']]);
    s.answers[0]!(true);
    expect(await Promise.all(first)).toEqual(['stored', 'stored']);
    await s.sent(2);
    expect(s.batches[1]).toEqual(['c', 'd', 'e']);
    s.answers[1]!(true);
    expect(await Promise.all(second)).toEqual(['stored', 'stored', 'stored']);
    await commit.drained();
    expect(commit.queued).toBe(0);
  });

  it('keeps batches within their size', async () => {
    const s = controlledSend();
    const commit = new GroupCommit<string>({ send: s.send, maxBatch: 2, fallback: () => {} });
    const all = ['a', 'b', 'c'].map((x) => commit.add(x, 5000));
    await s.sent(1);
    s.answers[0]!(true);
    await s.sent(2);
    s.answers[1]!(true);
    expect(await Promise.all(all)).toEqual(['stored', 'stored', 'stored']);
    expect(s.batches).toEqual([['a', 'b'], ['c']]);
  });

  it('hands a failed batch to the fallback before its waiters resume', async () => {
    const s = controlledSend();
    const fallen: string[] = [];
    const commit = new GroupCommit<string>({
      send: s.send,
      maxBatch: 500,
      fallback: (items, outcome) => fallen.push(...items.map((i) => `${i}:${outcome}`)),
    });
    const waiting = commit.add('a', 5000).then((outcome) => ({ outcome, fallen: [...fallen] }));
    await s.sent(1);
    s.answers[0]!(false);
    expect(await waiting).toEqual({ outcome: 'failed', fallen: ['a:failed'] });
  });

  it('counts a send that throws as failed', async () => {
    const fallen: string[] = [];
    const commit = new GroupCommit<string>({
      send: () => Promise.reject(new Error('boom')),
      maxBatch: 500,
      fallback: (items) => fallen.push(...items),
    });
    expect(await commit.add('a', 5000)).toBe('failed');
    expect(fallen).toEqual(['a']);
  });

  it('lets a waiter go after its wait; a later answer does not settle it twice', async () => {
    const s = controlledSend();
    const fallen: string[] = [];
    const commit = new GroupCommit<string>({
      send: s.send,
      maxBatch: 500,
      fallback: (items, outcome) => fallen.push(...items.map((i) => `${i}:${outcome}`)),
    });
    const slow = commit.add('a', 20);
    await s.sent(1);
    // Queued behind the slow batch, given up before it was ever sent.
    const behind = commit.add('b', 10);
    const started = Date.now();
    expect(await slow).toBe('timeout');
    expect(await behind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(fallen.sort()).toEqual(['a:timeout', 'b:timeout']);
    s.answers[0]!(true);
    await commit.drained();
    // 'b' was in the fallback already: it is not sent again by the group commit.
    expect(s.batches).toEqual([['a']]);
    expect(fallen).toHaveLength(2);
  });
});
