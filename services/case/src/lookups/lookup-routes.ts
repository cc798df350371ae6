import type { FastifyPluginAsync } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import {
  CardTypeList,
  CaseStatusList,
  CountryList,
  CurrencyList,
  CycleList,
  DeflectorList,
  DescriptorList,
  ErrorResponse,
  LookupQuery,
  ProcessorList,
  ReasonCodeCategoryList,
  ReasonCodeList,
  ServiceLevelList,
  SourceList,
  StatusGroupList,
  VerdictList,
} from '@portal/contracts';
import { narrowToMerchant, resolveScope } from '../scope/scope';
import { listDescriptors, listLookup, type LookupName } from './lookup-repository';

const RESPONSES: Record<LookupName, TSchema> = {
  countries: CountryList,
  processors: ProcessorList,
  rc: ReasonCodeList,
  'rc-categories': ReasonCodeCategoryList,
  cycles: CycleList,
  currencies: CurrencyList,
  cctypes: CardTypeList,
  'status-groups': StatusGroupList,
  statuses: CaseStatusList,
  verdicts: VerdictList,
  'service-levels': ServiceLevelList,
  sources: SourceList,
  deflectors: DeflectorList,
};

/** GET /cm/gen/* lookups (spec 1 §7, spec 2 §7): limit (default 999), start, search. */
export const lookupRoutes: FastifyPluginAsync = async (app) => {
  for (const [name, response] of Object.entries(RESPONSES) as Array<[LookupName, TSchema]>) {
    app.get<{ Querystring: LookupQuery }>(
      `/cm/gen/${name}`,
      {
        schema: {
          tags: ['lookups'],
          querystring: LookupQuery,
          response: { 200: response, 400: ErrorResponse },
        },
      },
      async (request) => listLookup(app.deps.db, name, request.query),
    );
  }
  app.get<{ Querystring: LookupQuery }>(
    '/cm/gen/descriptors',
    {
      schema: {
        tags: ['lookups'],
        querystring: LookupQuery,
        response: { 200: DescriptorList, 400: ErrorResponse },
      },
    },
    async (request) => {
      const scope = await narrowToMerchant(
        app.deps.db,
        await resolveScope(app.deps.db, request.ctx),
        request.query.merchant_id,
        'merchant_id',
      );
      return listDescriptors(app.deps.db, scope, request.query);
    },
  );
};
