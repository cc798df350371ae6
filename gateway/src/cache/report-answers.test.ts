import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryCache } from '@portal/core';
import { GuardedCache } from './guarded-cache';
import { ReportAnswers } from './report-answers';

const REPORT_TTL_SECONDS = 10;

/** A report whose figure is whatever the source holds when it is loaded. */
function setup() {
  const source = { figure: 1, loads: 0 };
  const answers = new ReportAnswers(
    new GuardedCache(new MemoryCache(), pino({ level: 'silent' })),
    REPORT_TTL_SECONDS,
    () => {},
  );
  const read = async (userId: number) => {
    const { value, result } = await answers.get('acme', userId, 'k', async () => {
      source.loads++;
      return { status: 200, contentType: 'application/json', body: String(source.figure) };
    });
    return `${value.body} ${result}`;
  };
  return { source, answers, read };
}

describe('ReportAnswers', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shares an answer until it is ttl seconds old, then loads it again', async () => {
    const { source, read } = setup();
    expect(await read(1)).toBe('1 MISS');
    source.figure = 2;
    expect(await read(2)).toBe('1 HIT');
    vi.advanceTimersByTime((REPORT_TTL_SECONDS - 1) * 1000);
    expect(await read(2)).toBe('1 HIT');
    vi.advanceTimersByTime(1001);
    expect(await read(2)).toBe('2 MISS');
    expect(source.loads).toBe(2);
  });

  it("a writer's answers are their own until no shared answer from before the write is left", async () => {
    const { source, answers, read } = setup();
    expect(await read(1)).toBe('1 MISS');
    source.figure = 2;
    await answers.noteWrite('acme', 7);
    expect(await read(7)).toBe('2 MISS');
    expect(await read(7)).toBe('2 HIT');
    expect(await read(1)).toBe('1 HIT');
    // The shared answer from before the write ends before the marker: the next one is loaded after it.
    vi.advanceTimersByTime(REPORT_TTL_SECONDS * 1000 + 500);
    source.figure = 3;
    expect(await read(1)).toBe('3 MISS');
    expect(await read(7)).toBe('3 MISS');
    vi.advanceTimersByTime(1000);
    expect(await read(7)).toBe('3 HIT');
    expect(source.loads).toBe(4);
  });

  it('a second write starts a new answer of their own', async () => {
    const { source, answers, read } = setup();
    await answers.noteWrite('acme', 7);
    expect(await read(7)).toBe('1 MISS');
    source.figure = 2;
    await answers.noteWrite('acme', 7);
    expect(await read(7)).toBe('2 MISS');
  });

  it('keeps only 200 answers', async () => {
    const answers = new ReportAnswers(
      new GuardedCache(new MemoryCache(), pino({ level: 'silent' })),
      10,
      () => {},
    );
    const refused = async () => ({ status: 400, contentType: 'application/json', body: '{}' });
    expect((await answers.get('acme', 1, 'k', refused)).result).toBe('MISS');
    expect((await answers.get('acme', 1, 'k', refused)).result).toBe('MISS');
  });

  it('with 0 seconds shares nothing and marks no writer', async () => {
    const answers = new ReportAnswers(
      new GuardedCache(new MemoryCache(), pino({ level: 'silent' })),
      0,
      () => {},
    );
    const ok = async () => ({ status: 200, contentType: 'application/json', body: '1' });
    expect((await answers.get('acme', 1, 'k', ok)).result).toBe('MISS');
    expect((await answers.get('acme', 1, 'k', ok)).result).toBe('MISS');
    expect(answers.noteWrite('acme', 1)).toBeUndefined();
  });
});
