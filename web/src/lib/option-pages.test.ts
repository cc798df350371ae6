import { describe, expect, it } from 'vitest';
import { concatPages, staticOptionPages, type Choice, type OptionPageRequest } from './option-pages';

const list = (prefix: string, n: number): Choice[] =>
  Array.from({ length: n }, (_, i) => ({ value: `${prefix}${i + 1}`, label: `${prefix} ${i + 1}` }));

describe('staticOptionPages', () => {
  const fetch = staticOptionPages(list('Opt', 12));
  it('pages the list and counts all matches', async () => {
    const p = await fetch({ search: '', start: 10, limit: 5 });
    expect(p.options.map((o) => o.value)).toEqual(['Opt11', 'Opt12']);
    expect(p.total).toBe(12);
  });
  it('searches labels case-insensitively', async () => {
    const p = await fetch({ search: 'opt 1', start: 0, limit: 5 });
    expect(p.options.map((o) => o.value)).toEqual(['Opt1', 'Opt10', 'Opt11', 'Opt12']);
    expect(p.total).toBe(4);
  });
});

describe('concatPages', () => {
  const a = list('A', 7);
  const b = list('B', 4);
  const calls: OptionPageRequest[] = [];
  const tracked = (choices: Choice[]) => {
    const inner = staticOptionPages(choices);
    return (r: OptionPageRequest) => {
      calls.push(r);
      return inner(r);
    };
  };
  const fetch = concatPages([tracked(a), tracked(b)]);
  const values = async (start: number, limit: number) =>
    (await fetch({ search: '', start, limit })).options.map((o) => o.value);

  it('continues a page from the first list into the second', async () => {
    expect(await values(5, 5)).toEqual(['A6', 'A7', 'B1', 'B2', 'B3']);
    expect(await values(10, 5)).toEqual(['B4']);
    expect(await values(0, 5)).toEqual(['A1', 'A2', 'A3', 'A4', 'A5']);
  });

  it('totals both lists, asking a list with limit 0 once the page is full', async () => {
    calls.length = 0;
    const p = await fetch({ search: '', start: 0, limit: 5 });
    expect(p.total).toBe(11);
    expect(calls).toEqual([
      { search: '', start: 0, limit: 5 },
      { search: '', start: 0, limit: 0 },
    ]);
  });

  it('passes the search to every list', async () => {
    const p = await fetch({ search: 'b', start: 0, limit: 10 });
    expect(p.options.map((o) => o.value)).toEqual(['B1', 'B2', 'B3', 'B4']);
    expect(p.total).toBe(4);
  });
});
