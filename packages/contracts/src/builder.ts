import { Type, type Static } from '@sinclair/typebox';
import { Id, SmallId, Text } from './common';
import { AcceptedWarnings, PageOps } from './page-ops';
import { REPRESENTMENT_MESSAGES } from './representment';

/**
 * The case builder (dispute assistant), spec 2 §2.7, §3, §4, §5, §7, §8:
 *
 *   GET  /builder/case/{id}?page={n}     the builder case (groups of fields, case facts, last updated)
 *   PUT  /builder/case/{id}              a page of the case draft; refusals answer data.fields [{id, errors}]
 *   GET  /builder/case/{id}/related      other open cases with the same card number (ours: step 4 grid)
 *   POST /builder/case/{id}/template     copies this case's answers to chosen related cases (ours)
 *   GET  /builder/gen/doctypes?case_id=  document types with their required flag for the case
 *   GET  /builder/products?mid_id=&search=   products of the MID's merchant
 *   POST /builder/products               a new product {mid_id, name, description, type, category}
 *   GET  /builder/products/categories    product categories
 *   GET  /docs/builder/upload-link?case_id=   (docs service) an upload form for one document
 *   POST /docs/builder/upload            (docs service) submits the representment with a case summary PDF
 */
export const BUILDER_MESSAGES = {
  submitted: 'Successfully submitted representment.',
  failed: 'An error occurred. Please try again later.',
  noProducts: 'No products found.',
  noCategories: 'No categories found.',
  noDocTypes: 'No document types found.',
  invalidFieldType: (type: string, label: string) => `Invalid field type ${type} passed for ${label}`,
  templateHeading: 'Use Current Case as Template for Following Cases:',
  templateAlert: 'Additional disputes for this credit card number were found.',
  selectDocType: 'Please select document type.',
  templateAdded: 'Template already added.',
  tooLarge: (mb: number | string) => `Files exceed ${mb}MB total limit.`,
  /**
   * Step 3 takes single JPG or PDF files, as the representment upload does (issue 29; spec 2 §5 named
   * JPG only, 'Only single JPG files of no more than {N}MB in total size are allowed.'): the upload's text.
   */
  onlyJpgOrPdf: REPRESENTMENT_MESSAGES.wrongType,
  submitTitle: 'Submit Representment',
  summaryTitle: 'Case Summary',
  /** Ours: the server's wording for rules the spec names without a text. */
  invalid: 'Please correct the marked fields.',
  required: 'This field is required.',
  saleTypeRequired: 'Please select a sales method.',
  productNameRequired: 'Please enter a product name.',
  categoryRequired: 'Please select a product category.',
  exclusive: 'A product cannot be both shippable and a service.',
  typeRule: (expected: number) => `The transaction type must be ${expected} for these answers.`,
  unknownField: 'This field does not belong to this page.',
  badNumber: 'Please enter a number.',
  badDate: 'Please enter a date (YYYY-MM-DD).',
  badMmYy: 'Please enter a date as MM/YY.',
  badSelect: 'Please select an option.',
  tooLong: (n: number) => `Must be ${n} characters or fewer.`,
  unknownProduct: 'The product was not found for this MID.',
  unknownCategory: 'The category was not found.',
  firstPage: 'Please complete step 1 first.',
  readOnly: 'Read-only users cannot use the case builder.',
  noRole: 'You do not hold the case-builder role.',
  notBuildable: (status: string) => `The case cannot be built now: it is ${status}.`,
  missingDocType: (name: string) => `Please add a document for ${name}.`,
  notRelated: (id: number) => `Case ${id} is not an open case with the same card number.`,
  copied: (n: number) => `Answers copied to ${n} case(s).`,
} as const;

/** The role (a grant on top of the user's role, spec 2 §6) that opens the builder. */
export const CASE_BUILDER_ROLE = 'case-builder';
/** Grid tabs that show the builder icon (spec 2 §2.1, §6). */
export const CASE_BUILDER_TABS = ['new_cases', 'assigned', 'in_progress'] as const;
/** Case statuses the builder may work on and submit from (New, Working, held for upload). */
export const BUILDABLE_STATUSES: readonly number[] = [1, 2, 16];

/** Sale types (spec 2 §9). */
export const SALE_TYPES = [
  { id: 1, name: 'Ecommerce' },
  { id: 2, name: 'Phone' },
  { id: 3, name: 'Mail/Direct Mail' },
  { id: 5, name: 'Card Present' },
  { id: 6, name: 'App/Mobile' },
] as const;
export const SALE_TYPE_IDS: readonly number[] = SALE_TYPES.map((s) => s.id);

/** Transaction (product) types: 1 shippable goods, 2 digital/other, 4 service (spec 2 §4). */
export const TRANSACTION_TYPES = [
  { id: 1, name: 'Physical Goods' },
  { id: 2, name: 'Digital Goods' },
  { id: 4, name: 'Service' },
] as const;

/** The transaction type rule: shippable gives 1, service gives 4, otherwise 2. */
export function transactionType(isShippable: boolean, isService: boolean): 1 | 2 | 4 {
  if (isShippable) return 1;
  if (isService) return 4;
  return 2;
}

export type BuilderFieldType = 'number' | 'date' | 'select' | 'textarea' | 'text' | 'mmYYDate';

export interface CatalogueField {
  id: number;
  name: string;
  label: string;
  type: BuilderFieldType;
  /** Full width (addresses, notes, chat logs, manifest, case history) or half. */
  full?: boolean;
  /** Select fields fetch their options from this endpoint with limit 999. */
  endpoint?: string;
  required?: boolean;
  /** Prefilled from this case property when the draft has no value. */
  prefill?: string;
}

/** Field groups; the icon is chosen by group id (spec 2 §2.7). */
export interface CatalogueGroup {
  id: number;
  name: string;
  fields: readonly CatalogueField[];
}

const f = (
  id: number,
  name: string,
  label: string,
  type: BuilderFieldType = 'text',
  extra: Partial<CatalogueField> = {},
): CatalogueField => ({ id, name, label, type, ...extra });

/** The form field catalogue (spec 2 §3): ids and names as listed, grouped for the pages. */
export const FIELD_GROUPS: readonly CatalogueGroup[] = [
  {
    id: 1,
    name: 'Customer Information',
    fields: [
      f(11, 'fname', 'First Name', 'text', { required: true }),
      f(12, 'lname', 'Last Name', 'text', { required: true }),
      f(10, 'email', 'Email', 'text'),
      f(15, 'phone', 'Phone', 'text'),
      f(61, 'billing_address', 'Billing Address', 'text', { full: true }),
      f(62, 'billing_city', 'Billing City'),
      f(63, 'billing_state', 'Billing State'),
      f(64, 'billing_zip', 'Billing Zip'),
      f(65, 'billing_country_id', 'Billing Country', 'select', { endpoint: '/cm/gen/countries' }),
    ],
  },
  {
    id: 2,
    name: 'Transaction Details',
    fields: [
      f(14, 'order_id', 'Order ID', 'text', { required: true, prefill: 'order_id' }),
      f(22, 'trans_id', 'Transaction ID'),
      f(51, 'date_trans', 'Transaction Date', 'date', { required: true, prefill: 'date_trans' }),
      f(53, 'amount', 'Transaction Amount', 'number', { required: true, prefill: 'trans_amt' }),
      f(55, 'currency_id', 'Currency', 'select', {
        endpoint: '/cm/gen/currencies',
        prefill: 'dispute_currency_id',
      }),
      f(9, 'cs_notes', 'Customer Service Notes', 'textarea', { full: true }),
    ],
  },
  {
    id: 5,
    name: 'Card Details',
    fields: [
      f(58, 'cc_type', 'Card Type', 'text', { prefill: 'cc_type' }),
      f(59, 'cc_no', 'Card Number', 'text', { prefill: 'cc_no' }),
      f(60, 'cc_last_four', 'Card Last Four', 'text', { prefill: 'cc_last_four' }),
      f(66, 'cc_exp', 'Card Expiration', 'mmYYDate'),
      f(67, 'avs_result', 'AVS Result'),
      f(68, 'cvv_result', 'CVV Result'),
    ],
  },
  {
    id: 3,
    name: 'Shipping Details',
    fields: [
      f(70, 'shipping_address', 'Shipping Address', 'text', { full: true, required: true }),
      f(71, 'shipping_city', 'Shipping City', 'text', { required: true }),
      f(72, 'shipping_state', 'Shipping State'),
      f(73, 'shipping_zip', 'Shipping Zip', 'text', { required: true }),
      f(117, 'country_id', 'Shipping Country', 'select', { endpoint: '/cm/gen/countries' }),
      f(74, 'carrier', 'Carrier'),
      f(75, 'tracking_no', 'Tracking Number', 'text', { required: true }),
      f(76, 'date_shipped', 'Date Shipped', 'date'),
      f(77, 'date_delivered', 'Date Delivered', 'date'),
      f(78, 'manifest', 'Shipping Manifest', 'textarea', { full: true }),
    ],
  },
  {
    id: 6,
    name: 'Product Details',
    fields: [
      f(110, 'product_description', 'Product Description', 'textarea', { full: true }),
      f(111, 'quantity', 'Quantity', 'number'),
      f(112, 'refund_policy', 'Refund Policy', 'textarea', { full: true }),
    ],
  },
  {
    id: 7,
    name: 'Business Details',
    fields: [
      f(100, 'business_name', 'Business Name'),
      f(101, 'business_contact', 'Business Contact'),
      f(102, 'business_phone', 'Business Phone'),
      f(103, 'tax_id', 'Tax ID'),
    ],
  },
  {
    id: 8,
    name: 'Service Details',
    fields: [
      f(105, 'service_description', 'Service Description', 'textarea', { full: true, required: true }),
      f(106, 'date_service_start', 'Service Start Date', 'date'),
      f(107, 'date_service_end', 'Service End Date', 'date'),
    ],
  },
  {
    id: 9,
    name: 'Ticket Details',
    fields: [
      f(90, 'event_name', 'Event Name'),
      f(91, 'event_date', 'Event Date', 'date'),
      f(92, 'ticket_no', 'Ticket Number'),
      f(93, 'seat', 'Seat'),
    ],
  },
  {
    id: 10,
    name: 'Device and IP',
    fields: [
      f(80, 'ip_address', 'IP Address'),
      f(81, 'device_id', 'Device ID'),
      f(82, 'device_fingerprint', 'Device Fingerprint'),
      f(83, 'customer_login', 'Customer Account Login'),
      f(84, 'chat_logs', 'Chat Logs', 'textarea', { full: true }),
    ],
  },
  {
    id: 13,
    name: 'Travel Details',
    fields: [
      f(95, 'passenger_name', 'Passenger Name'),
      f(96, 'travel_date', 'Travel Date', 'date'),
      f(97, 'departure', 'Departure'),
      f(98, 'destination', 'Destination'),
      f(99, 'booking_ref', 'Booking Reference'),
    ],
  },
  {
    id: 14,
    name: 'Case History',
    fields: [
      f(48, 'case_no', 'Case Number', 'text', { prefill: 'case_no' }),
      f(49, 'reason_code_id', 'Reason Code', 'select', { endpoint: '/cm/gen/rc', prefill: 'reason_code_id' }),
      f(50, 'date_post', 'Post Date', 'date', { prefill: 'date_post' }),
      f(52, 'date_due', 'Due Date', 'date', { prefill: 'date_due' }),
      f(54, 'case_amt', 'Dispute Amount', 'number', { prefill: 'dispute_amt' }),
      f(116, 'cancellation_date', 'Cancellation Date', 'date'),
      f(115, 'case_history', 'Case History', 'textarea', { full: true }),
    ],
  },
];

export const CATALOGUE_FIELDS: ReadonlyMap<number, CatalogueField & { group_id: number }> = new Map(
  FIELD_GROUPS.flatMap((g) => g.fields.map((x) => [x.id, { ...x, group_id: g.id }] as const)),
);

/** Product categories whose field group joins page 2 (ticket and travel sellers). */
export const CATEGORY_GROUPS: Readonly<Record<string, number>> = { 'Event Tickets': 9, Travel: 13 };

/** What decides page 2's groups: saved answers of page 1 and the case's reason category. */
export interface PageInputs {
  sale_type: number | null;
  type_id: number | null;
  is_subscription: boolean;
  category_name: string | null;
  reason_category: string;
}

/**
 * Field groups by page (spec 2 §2.7): page 1 the customer and transaction;
 * page 2 by reason category, sale type and product: card always, shipping and
 * product for shippable goods, services, device/IP for fraud and card-absent
 * sales, business for phone and mail orders, case history for consumer
 * disputes, processing errors and subscriptions, ticket/travel by category.
 */
export function groupsForPage(page: number, p: PageInputs): number[] {
  if (page === 1) return [1, 2];
  if (page !== 2) return [];
  const groups = [5];
  if (p.type_id === 1) groups.push(3, 6);
  if (p.type_id === 4) groups.push(8);
  if (p.reason_category === 'Fraud' || p.sale_type === 1 || p.sale_type === 6 || p.type_id === 2)
    groups.push(10);
  if (p.sale_type === 2 || p.sale_type === 3) groups.push(7);
  const byCategory = p.category_name ? CATEGORY_GROUPS[p.category_name] : undefined;
  if (byCategory) groups.push(byCategory);
  if (
    p.reason_category === 'Consumer Disputes' ||
    p.reason_category === 'Processing Errors' ||
    p.is_subscription
  )
    groups.push(14);
  return groups;
}

// ---- schemas

export const BuilderField = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  label: Type.String(),
  type: Type.String(),
  is_required: Type.Boolean(),
  full_width: Type.Boolean(),
  endpoint: Type.Union([Type.String(), Type.Null()]),
  value: Type.Union([Type.String(), Type.Null()]),
});
export type BuilderField = Static<typeof BuilderField>;

export const BuilderGroup = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  fields: Type.Array(BuilderField),
});
export type BuilderGroup = Static<typeof BuilderGroup>;

export const BuilderCase = Type.Object({
  id: Type.Integer(),
  mid_id: Type.Integer(),
  merchant_id: Type.Integer(),
  page: Type.Integer(),
  product_id: Type.Union([Type.Integer(), Type.Null()]),
  product: Type.Union([
    Type.Object({ id: Type.Integer(), name: Type.String(), type: Type.Integer(), category: Type.String() }),
    Type.Null(),
  ]),
  category_id: Type.Union([Type.Integer(), Type.Null()]),
  sale_type: Type.Union([Type.Integer(), Type.Null()]),
  type_id: Type.Union([Type.Integer(), Type.Null()]),
  is_shippable: Type.Boolean(),
  is_service: Type.Boolean(),
  is_subscription: Type.Boolean(),
  groups: Type.Array(BuilderGroup),
  reason_code: Type.String(),
  reason_code_description: Type.String(),
  reason_category: Type.String(),
  case_no: Type.String(),
  cc_no: Type.Union([Type.String(), Type.Null()]),
  dispute_amt: Type.Number(),
  dispute_currency: Type.String(),
  date_trans: Type.Union([Type.String(), Type.Null()]),
  date_created: Type.String(),
  date_due: Type.String(),
  status_id: Type.Integer(),
  assigned_user_id: Type.Union([Type.Integer(), Type.Null()]),
  last_updated: Type.Union([
    Type.Object({ timestamp: Type.String(), username: Type.Union([Type.String(), Type.Null()]) }),
    Type.Null(),
  ]),
});
export type BuilderCase = Static<typeof BuilderCase>;

export const BuilderCaseQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 3, default: 1 })),
});

export const BuilderFieldValue = Type.Object(
  {
    id: Id(),
    value: Type.Union([Text({ maxLength: 20000 }), Type.Number(), Type.Null()]),
  },
  { additionalProperties: false },
);

/** `PUT /builder/case/{id}`: one page of the case draft (spec 2 §3 'Case draft'). */
export const BuilderSaveBody = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 3 }),
    product_id: Type.Optional(Type.Union([Id(), Type.Null()])),
    category_id: Type.Optional(Type.Union([Id(), Type.Null()])),
    sale_type: Type.Optional(Type.Union([SmallId(), Type.Null()])),
    is_shippable: Type.Optional(Type.Boolean()),
    is_service: Type.Optional(Type.Boolean()),
    is_subscription: Type.Optional(Type.Boolean()),
    new_product_name: Type.Optional(Type.Union([Text({ maxLength: 200 }), Type.Null()])),
    new_product_description: Type.Optional(Type.Union([Text({ maxLength: 2000 }), Type.Null()])),
    type_id: Type.Optional(Type.Union([SmallId(), Type.Null()])),
    fields: Type.Array(BuilderFieldValue, { maxItems: 200 }),
  },
  { additionalProperties: false },
);
export type BuilderSaveBody = Static<typeof BuilderSaveBody>;

/** One refused field: ids of the catalogue, or names of the draft (sale_type, category_id, ...). */
export const BuilderFieldError = Type.Object({
  id: Type.Union([Type.Integer(), Type.String()]),
  errors: Type.Array(Type.String()),
});
export type BuilderFieldError = Static<typeof BuilderFieldError>;

export const BuilderSaveAnswer = Type.Object({
  message: Type.String(),
  page: Type.Integer(),
  product_id: Type.Union([Type.Integer(), Type.Null()]),
  type_id: Type.Union([Type.Integer(), Type.Null()]),
  last_updated: Type.Object({ timestamp: Type.String(), username: Type.Union([Type.String(), Type.Null()]) }),
});
export type BuilderSaveAnswer = Static<typeof BuilderSaveAnswer>;

export const DocTypesQuery = Type.Object({
  case_id: Type.Optional(Id()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 999, default: 999 })),
});
export const DocType = Type.Object({ id: Type.Integer(), name: Type.String(), required: Type.Boolean() });
export type DocType = Static<typeof DocType>;
export const DocTypeList = Type.Object({ data: Type.Array(DocType) });
export type DocTypeList = Static<typeof DocTypeList>;

export const ProductsQuery = Type.Object({
  mid_id: Id(),
  search: Type.Optional(Text({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 999, default: 25 })),
});
export const ProductCategory = Type.Object({ id: Type.Integer(), name: Type.String() });
export type ProductCategory = Static<typeof ProductCategory>;
export const Product = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  type: Type.Object({ id: Type.Integer(), name: Type.String() }),
  category: Type.Union([ProductCategory, Type.Null()]),
});
export type Product = Static<typeof Product>;
export const ProductList = Type.Object({ data: Type.Array(Product) });
export type ProductList = Static<typeof ProductList>;

export const NewProductBody = Type.Object(
  {
    mid_id: Id(),
    name: Text({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.Union([Text({ maxLength: 2000 }), Type.Null()])),
    type: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(4)]),
    category: Id(),
  },
  { additionalProperties: false },
);
export type NewProductBody = Static<typeof NewProductBody>;
export const NewProductAnswer = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: Type.Integer(),
});
export type NewProductAnswer = Static<typeof NewProductAnswer>;

export const CategoriesQuery = Type.Object({
  mid_id: Type.Optional(Id()),
  search: Type.Optional(Text({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 999, default: 999 })),
});
export const CategoryList = Type.Object({ data: Type.Array(ProductCategory) });
export type CategoryList = Static<typeof CategoryList>;

export const RelatedCase = Type.Object({
  id: Type.Integer(),
  case_no: Type.String(),
  reason_code: Type.String(),
  dispute_amt: Type.Number(),
  dispute_currency: Type.String(),
  date_due: Type.String(),
  status: Type.String(),
});
export type RelatedCase = Static<typeof RelatedCase>;
export const RelatedCaseList = Type.Object({ data: Type.Array(RelatedCase) });
export type RelatedCaseList = Static<typeof RelatedCaseList>;

export const TemplateCopyBody = Type.Object(
  { case_ids: Type.Array(Id(), { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
);
export const TemplateCopyAnswer = Type.Object({
  message: Type.String(),
  case_ids: Type.Array(Type.Integer()),
});
export type TemplateCopyAnswer = Static<typeof TemplateCopyAnswer>;

// ---- docs service: the builder's upload (spec 2 §7 'Documents')

export const BuilderUploadLinkQuery = Type.Object({
  case_id: Id(),
  filename: Type.Optional(Text({ minLength: 1, maxLength: 255 })),
  /** The type the file will be (JPEG by default); the submission checks the bytes against it. */
  content_type: Type.Optional(Type.Union([Type.Literal('application/pdf'), Type.Literal('image/jpeg')])),
});

export const BuilderUploadFile = Type.Object(
  {
    s3_key: Text({ minLength: 1, maxLength: 512 }),
    filename: Text({ minLength: 1, maxLength: 255 }),
    content_type: Text({ minLength: 1, maxLength: 100 }),
    size: Type.Integer({ minimum: 0, maximum: 2147483647 }),
    order_num: Type.Integer({ minimum: 0, maximum: 1000 }),
    upload_doc_type_id: Id(),
    /** Issue 34: pages turned, removed or masked in the builder's preview (applied when compiled). */
    page_ops: Type.Optional(PageOps),
  },
  { additionalProperties: false },
);
export type BuilderUploadFile = Static<typeof BuilderUploadFile>;

export const BuilderUploadBody = Type.Object(
  {
    case_id: Id(),
    files: Type.Array(BuilderUploadFile, { maxItems: 50 }),
    templates: Type.Array(
      Type.Object(
        {
          id: Id(),
          order_num: Type.Integer({ minimum: 0, maximum: 1000 }),
          upload_doc_type_id: Id(),
          page_ops: Type.Optional(PageOps),
        },
        { additionalProperties: false },
      ),
      { maxItems: 50 },
    ),
    comment: Type.Optional(Type.Union([Text({ maxLength: 4000 }), Type.Null()])),
    /** Issue 34: the previewed packet's warnings, accepted with a note (as the upload modal sends them). */
    accepted_warnings: Type.Optional(AcceptedWarnings),
    /** Issue 32: a case a processor connection owns: stage the evidence there as a draft, not submitted. */
    save_as_draft: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type BuilderUploadBody = Static<typeof BuilderUploadBody>;

export const BuilderUploadAnswer = Type.Object({
  message: Type.String(),
  version: Type.Integer(),
  status_id: Type.Integer(),
  job_id: Type.String(),
});
export type BuilderUploadAnswer = Static<typeof BuilderUploadAnswer>;
