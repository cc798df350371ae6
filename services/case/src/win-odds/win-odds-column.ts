/**
 * The score of an open case as a column of the case rows (CASE_COLUMNS): one
 * primary-key lookup per row of the page, in the list's own query (no call
 * per row). Closed cases answer null, whatever score is still stored.
 */
export const WIN_ODDS_COLUMN = `(select json_build_object('probability', w.probability::float8,
      'expected_value', w.expected_value::float8, 'recommendation', w.recommendation, 'source', w.source,
      'factors', w.factors,
      'scored_at', to_char(w.scored_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
    from cases.win_odds_scores w
    where w.case_id = c.id and w.tenant_id = c.tenant_id and c.status_group_id in (1, 2)) as win_odds`;
