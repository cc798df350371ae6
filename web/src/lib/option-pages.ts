/** A select option as the filters hold it: ids as strings, the label the user sees. */
export interface Choice {
  value: string;
  label: string;
}

export interface OptionPageRequest {
  search: string;
  start: number;
  limit: number;
}

export interface OptionPage {
  options: Choice[];
  /** All matches of the search, not only this page. */
  total: number;
}

export type OptionFetcher = (r: OptionPageRequest, signal?: AbortSignal) => Promise<OptionPage>;

/**
 * Pages several lists as one, in order: the page at `start` takes what is
 * left of the first list and continues in the next. Each list is asked with
 * `limit` 0 once the page is full, which still answers its total.
 */
export function concatPages(parts: OptionFetcher[]): OptionFetcher {
  return async (r, signal) => {
    const options: Choice[] = [];
    let total = 0;
    for (const part of parts) {
      const start = Math.max(0, r.start - total);
      const limit = Math.max(0, r.limit - options.length);
      const page = await part({ search: r.search, start, limit }, signal);
      options.push(...page.options.slice(0, limit));
      total += page.total;
    }
    return { options, total };
  };
}

/** A fixed list (a filter's default_options), searched by label and paged here. */
export function staticOptionPages(choices: Choice[]): OptionFetcher {
  return async (r) => {
    const term = r.search.trim().toLowerCase();
    const matches = term ? choices.filter((c) => c.label.toLowerCase().includes(term)) : choices;
    return { options: matches.slice(r.start, r.start + r.limit), total: matches.length };
  };
}
