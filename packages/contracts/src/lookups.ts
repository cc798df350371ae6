import { Type, type Static } from '@sinclair/typebox';
import { Id, ListResponse, Offset, Text } from './common';

/** Query of the lookup lists `GET /cm/gen/*` (spec 1 §7: limit 999, start, search). */
export const LookupQuery = Type.Object({
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 999 })),
  search: Type.Optional(Text({ maxLength: 200 })),
  /** Reason codes only: 1 fraud codes, 0 the others. */
  is_fraud: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  /** Reason codes only: card type id. */
  card_type_id: Type.Optional(Id()),
  /** Descriptors only: limit to one merchant's subtree. */
  merchant_id: Type.Optional(Id()),
});
export type LookupQuery = Static<typeof LookupQuery>;

const IdName = { id: Type.Integer(), name: Type.String() };

export const Country = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  number_code: Type.String(),
});
export const Processor = Type.Object({ id: Type.Integer(), name: Type.String(), alias: Type.String() });
export const ReasonCode = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  /** Display name '{card type name} - {code}' (spec 2 §3). */
  name: Type.String(),
  description: Type.String(),
  is_fraud: Type.Boolean(),
  card_type: Type.Object(IdName),
  category: Type.Object(IdName),
});
export const ReasonCodeCategory = Type.Object(IdName);
export const Cycle = Type.Object({ ...IdName, alias: Type.String() });
export const Currency = Type.Object({
  id: Type.Integer(),
  currency: Type.String(),
  code: Type.String(),
  iso: Type.String(),
});
export const CardType = Type.Object({ ...IdName, alias: Type.String() });
export const StatusGroup = Type.Object({ ...IdName, alias: Type.String() });
export const CaseStatus = Type.Object({ ...IdName, status_group_id: Type.Integer() });
export const Verdict = Type.Object(IdName);
export const ServiceLevel = Type.Object(IdName);
export const Source = Type.Object({ ...IdName, code: Type.String() });
export const Deflector = Type.Object({ ...IdName, alias: Type.String() });
export const Descriptor = Type.Object({
  id: Type.Integer(),
  descriptor: Type.String(),
  mid_id: Type.Integer(),
  mid: Type.String(),
});

export const CountryList = ListResponse(Country);
export type CountryList = Static<typeof CountryList>;
export const ProcessorList = ListResponse(Processor);
export type ProcessorList = Static<typeof ProcessorList>;
export const ReasonCodeList = ListResponse(ReasonCode);
export type ReasonCodeList = Static<typeof ReasonCodeList>;
export const ReasonCodeCategoryList = ListResponse(ReasonCodeCategory);
export type ReasonCodeCategoryList = Static<typeof ReasonCodeCategoryList>;
export const CycleList = ListResponse(Cycle);
export type CycleList = Static<typeof CycleList>;
export const CurrencyList = ListResponse(Currency);
export type CurrencyList = Static<typeof CurrencyList>;
export const CardTypeList = ListResponse(CardType);
export type CardTypeList = Static<typeof CardTypeList>;
export const StatusGroupList = ListResponse(StatusGroup);
export type StatusGroupList = Static<typeof StatusGroupList>;
export const CaseStatusList = ListResponse(CaseStatus);
export type CaseStatusList = Static<typeof CaseStatusList>;
export const VerdictList = ListResponse(Verdict);
export type VerdictList = Static<typeof VerdictList>;
export const ServiceLevelList = ListResponse(ServiceLevel);
export type ServiceLevelList = Static<typeof ServiceLevelList>;
export const SourceList = ListResponse(Source);
export type SourceList = Static<typeof SourceList>;
export const DeflectorList = ListResponse(Deflector);
export type DeflectorList = Static<typeof DeflectorList>;
export const DescriptorList = ListResponse(Descriptor);
export type DescriptorList = Static<typeof DescriptorList>;

export type Country = Static<typeof Country>;
export type Processor = Static<typeof Processor>;
export type ReasonCode = Static<typeof ReasonCode>;
export type Cycle = Static<typeof Cycle>;
export type Currency = Static<typeof Currency>;
export type CardType = Static<typeof CardType>;
export type StatusGroup = Static<typeof StatusGroup>;
export type CaseStatus = Static<typeof CaseStatus>;
export type Verdict = Static<typeof Verdict>;
export type Source = Static<typeof Source>;
export type Deflector = Static<typeof Deflector>;
export type Descriptor = Static<typeof Descriptor>;

/**
 * The lookup paths of the case service (without /api). Every one answers
 * `{data, pagination}`; the gateway caches them per tenant and drops them on
 * an invalidation message of kind 'lookup'.
 */
export const LOOKUP_PATHS = [
  '/cm/gen/countries',
  '/cm/gen/processors',
  '/cm/gen/rc',
  '/cm/gen/rc-categories',
  '/cm/gen/cycles',
  '/cm/gen/currencies',
  '/cm/gen/cctypes',
  '/cm/gen/status-groups',
  '/cm/gen/statuses',
  '/cm/gen/verdicts',
  '/cm/gen/service-levels',
  '/cm/gen/sources',
  '/cm/gen/deflectors',
  '/cm/gen/descriptors',
] as const;
