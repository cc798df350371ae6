import { Type, type Static } from '@sinclair/typebox';
import { Id, ListResponse, Offset, Text } from './common';

/**
 * A merchant as `GET /cm/merchants/{id}` answers it: the panel shape of spec 1
 * §3.2 plus what the user service needs for whoami (show_alerts_banner,
 * allowed_domains, mids_count, service_level_id). A system context sees the
 * whole tenant; users see their subtree and its ancestors (the parent name:
 * MerchantName below).
 */
export const Merchant = Type.Object(
  {
    id: Type.Integer(),
    business_name: Type.String(),
    alias: Type.Union([Type.String(), Type.Null()]),
    parent_id: Type.Union([Type.Integer(), Type.Null()]),
    partner_company_id: Type.Union([Type.String(), Type.Null()]),
    /** 1 active, 2 inactive. */
    status: Type.Object({ id: Type.Integer(), name: Type.String() }),
    date_created: Type.String(),
    business_address: Type.Union([Type.String(), Type.Null()]),
    city: Type.Union([Type.String(), Type.Null()]),
    state: Type.Union([Type.String(), Type.Null()]),
    zip: Type.Union([Type.String(), Type.Null()]),
    country: Type.Union([Type.String(), Type.Null()]),
    business_phone: Type.Union([Type.String(), Type.Null()]),
    contact: Type.Object({
      username: Type.Union([Type.String(), Type.Null()]),
      fname: Type.Union([Type.String(), Type.Null()]),
      lname: Type.Union([Type.String(), Type.Null()]),
      phone_number: Type.Union([Type.String(), Type.Null()]),
      email: Type.Union([Type.String(), Type.Null()]),
    }),
    direct_api: Type.Boolean(),
    service_level: Type.Object({ id: Type.Integer(), name: Type.String() }),
    service_level_id: Type.Integer(),
    deflectors: Type.Array(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        alias: Type.String(),
        status: Type.Object({ id: Type.Integer() }),
      }),
    ),
    /** Merchant features: see MERCHANT_FEATURE. */
    features: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
    isRootMerchant: Type.Boolean(),
    show_alerts_banner: Type.Boolean(),
    allowed_domains: Type.Array(Type.String()),
    /** MIDs of this merchant and every merchant below it. */
    mids_count: Type.Integer(),
  },
  { $id: 'Merchant' },
);
export type Merchant = Static<typeof Merchant>;
/** What a partner or merchant user reads of a merchant above its own subtree: the name only. */
export const MerchantName = Type.Object({ id: Type.Integer(), business_name: Type.String() });
export type MerchantName = Static<typeof MerchantName>;

export const MerchantIdParams = Type.Object({ id: Id() });

/** `GET /cm/merchants`: the merchants in the caller's scope (merchant switcher, filters), by name. */
export const MerchantListQuery = Type.Object({
  search: Type.Optional(Text({ maxLength: 200 })),
  status_id: Type.Optional(Id()),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 999, default: 50 })),
});
export type MerchantListQuery = Static<typeof MerchantListQuery>;
export const MerchantListItem = Type.Object({
  id: Type.Integer(),
  business_name: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  parent_id: Type.Union([Type.Integer(), Type.Null()]),
  status_id: Type.Integer(),
});
export type MerchantListItem = Static<typeof MerchantListItem>;
export const MerchantList = ListResponse(MerchantListItem);
export type MerchantList = Static<typeof MerchantList>;

/** `GET /cm/mids` (spec 2 §7): MIDs in scope. */
export const MidQuery = Type.Object({
  merchant_id: Type.Optional(Id()),
  status_id: Type.Optional(Id()),
  search: Type.Optional(Text({ maxLength: 200 })),
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 25 })),
});
export const Mid = Type.Object({
  id: Type.Integer(),
  mid: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  merchant_id: Type.Integer(),
  merchant_name: Type.String(),
  status_id: Type.Integer(),
  descriptors: Type.Array(Type.String()),
});
export const MidList = ListResponse(Mid);
export type MidList = Static<typeof MidList>;
export type Mid = Static<typeof Mid>;

/**
 * Internal: `PUT /cm/assignees/{id}` (system context only). The user service
 * calls it when a provider staff user (role id 8 or 9) is created or changed,
 * so the case service can assign cases to them and keep their name on the case.
 */
export const AssigneeBody = Type.Object({
  username: Text({ minLength: 1, maxLength: 4096 }),
  fname: Type.String(),
  lname: Type.String(),
  role_id: Type.Integer(),
  is_active: Type.Boolean(),
});
export type AssigneeBody = Static<typeof AssigneeBody>;

/** Merchant feature ids (spec 3 §5); they gate case columns and filters (spec 2 §2.1, §2.2, §6). */
export const MERCHANT_FEATURE = { issuerDocs: 1, verdicts: 2, platform: 3 } as const;
export const MERCHANT_FEATURE_NAMES: Record<number, string> = {
  1: 'Issuer Documents',
  2: 'Outcome Verdicts',
  3: 'Platform',
};
