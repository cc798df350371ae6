import { Type, type Static, type TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AlertListQuery } from './alerts';
import { CaseListQuery } from './cases';
import { Id } from './common';

/**
 * Saved views (issue 21): a user names the state of a list (its URL query
 * string) and opens it again from the list's Views menu. Views are kept per
 * user in the user service; a shared view is seen by the users of the owner's
 * merchant, and only its owner renames, shares or deletes it.
 */
export const SAVED_VIEW_LISTS = ['cases', 'alerts'] as const;
export type SavedViewList = (typeof SAVED_VIEW_LISTS)[number];
/** Views one user may keep per list. */
export const SAVED_VIEWS_MAX = 50;
export const SAVED_VIEW_NAME_MAX = 80;
export const SAVED_VIEW_QUERY_MAX = 2000;

export const SAVED_VIEW_MESSAGES = {
  nameTaken: 'You already have a view with this name for this list.',
  tooMany: `You can keep ${SAVED_VIEWS_MAX} views per list: delete one to save another.`,
  nameEmpty: 'name: enter a name for the view.',
  notFound: 'This view does not exist or is not yours.',
  impersonating: 'Saved views cannot be changed while acting as another user.',
} as const;

export const SavedViewListName = Type.Union(SAVED_VIEW_LISTS.map((l) => Type.Literal(l)));
/** No control characters (and so no NUL, which Postgres refuses). */
const NO_CONTROL = '^[^\\u0000-\\u001F\\u007F]*$';
export const SavedViewName = Type.String({
  minLength: 1,
  maxLength: SAVED_VIEW_NAME_MAX,
  pattern: NO_CONTROL,
});
/** The list's URL search string without '?', e.g. `tab=new_cases&sort_by=date_post&sort_order=desc`. */
export const SavedViewQuery = Type.String({ maxLength: SAVED_VIEW_QUERY_MAX, pattern: NO_CONTROL });
/** The list route the view opens on, e.g. `/chargebacks`, `/case-management-new`, `/alerts`. */
export const SavedViewPath = Type.String({ pattern: '^/[a-z0-9-]{1,63}$' });

export const SavedView = Type.Object({
  id: Id(),
  list: SavedViewListName,
  path: SavedViewPath,
  name: Type.String(),
  query: Type.String(),
  shared: Type.Boolean(),
  owner: Type.Object({ id: Type.Integer(), name: Type.String() }),
  is_owner: Type.Boolean(),
  created_at: Type.String(),
});
export type SavedView = Static<typeof SavedView>;

export const SavedViewsResponse = Type.Object({ data: Type.Array(SavedView) });
export type SavedViewsResponse = Static<typeof SavedViewsResponse>;

/** GET /users/saved-views?list=cases: the caller's views and the shared views of the same merchant. */
export const SavedViewListQuery = Type.Object({ list: SavedViewListName });
export type SavedViewListQuery = Static<typeof SavedViewListQuery>;

/** POST /users/saved-views. The name is trimmed; a blank name is refused. */
export const SavedViewCreate = Type.Object(
  {
    list: SavedViewListName,
    path: SavedViewPath,
    name: SavedViewName,
    query: SavedViewQuery,
    shared: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type SavedViewCreate = Static<typeof SavedViewCreate>;

/** PATCH /users/saved-views/:id (owner only): rename and/or share toggle. */
export const SavedViewUpdate = Type.Object(
  { name: Type.Optional(SavedViewName), shared: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);
export type SavedViewUpdate = Static<typeof SavedViewUpdate>;

export const SavedViewParams = Type.Object({ id: Id() });

/**
 * The URL query of a case list, which a saved view of it holds: the
 * `GET /cm/cases` parameters the user chooses (search, sort, paging, the
 * advanced search's filters, the panel's expire days) plus the list's tab and
 * filter panel row. The merchant switcher, the list's own fixed filters and
 * the tab's filter group are the list's to add, never the link's.
 */
export const CaseListViewQuery = Type.Composite([
  Type.Omit(CaseListQuery, [
    'client_id',
    'merchant_id',
    'filter_group',
    'intent',
    'export_type',
    'export_total',
    'headers',
    'headers[]',
    'header_labels',
    'header_labels[]',
  ]),
  Type.Object({
    tab: Type.Optional(Type.String({ pattern: '^[a-z_]{1,40}$' })),
    panel: Type.Optional(Type.String({ pattern: '^[a-z-]{1,40}$' })),
  }),
]);
export type CaseListViewQuery = Static<typeof CaseListViewQuery>;

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
/** The URL query of the alerts grid: `GET /cm/svc/alerts` filters, with the date range as from and to. */
export const AlertListViewQuery = Type.Composite([
  Type.Omit(AlertListQuery, ['merchant_id', 'client_id', 'export_type', 'date_range']),
  Type.Object({ from: Type.Optional(Day), to: Type.Optional(Day) }),
]);
export type AlertListViewQuery = Static<typeof AlertListViewQuery>;

/**
 * Reads a list's URL search string against that list's query schema, field by
 * field: a value the schema refuses (hand-edited, or from an older version)
 * is dropped and its default used, so a bad link opens the default list
 * instead of failing. Repeated keys keep the first value.
 */
export function readListQuery<T extends TObject>(schema: T, search: URLSearchParams): Partial<Static<T>> {
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(schema.properties)) {
    const raw = search.get(key);
    if (raw === null || raw === '') continue;
    const field = Type.Object({ v: prop });
    const converted = Value.Convert(field, { v: raw }) as { v: unknown };
    if (Value.Check(field, converted)) out[key] = converted.v;
  }
  return out as Partial<Static<T>>;
}
