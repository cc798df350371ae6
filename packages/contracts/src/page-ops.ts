import { Type, type Static } from '@sinclair/typebox';
import { Int32, Text } from './common';

/**
 * Page operations on one document of a representment packet (issue 34): the
 * arrangement a person makes in the preview, stored with the version and
 * applied by the docs service when it compiles (never a PDF built by the
 * browser). `page` is the 0-based page of the document as uploaded. Boxes
 * are in the page's PDF user space (points, origin bottom-left, before any
 * rotation), as the server's card-number check answers them.
 */
export const PageBox = Type.Object(
  {
    x: Type.Number({ minimum: -100000, maximum: 100000 }),
    y: Type.Number({ minimum: -100000, maximum: 100000 }),
    width: Type.Number({ exclusiveMinimum: 0, maximum: 100000 }),
    height: Type.Number({ exclusiveMinimum: 0, maximum: 100000 }),
  },
  { additionalProperties: false },
);
export type PageBox = Static<typeof PageBox>;

const PageIndex = Int32({ minimum: 0, maximum: 9999 });

export const PageOp = Type.Union([
  Type.Object(
    {
      op: Type.Literal('rotate'),
      page: PageIndex,
      degrees: Type.Union([Type.Literal(90), Type.Literal(180), Type.Literal(270)]),
    },
    { additionalProperties: false },
  ),
  Type.Object({ op: Type.Literal('remove'), page: PageIndex }, { additionalProperties: false }),
  /** A box drawn over the page: the page is redrawn as an image with the boxes filled, so no text stays under them. */
  Type.Object(
    { op: Type.Literal('mask'), page: PageIndex, boxes: Type.Array(PageBox, { minItems: 1, maxItems: 50 }) },
    { additionalProperties: false },
  ),
]);
export type PageOp = Static<typeof PageOp>;

export const PageOps = Type.Array(PageOp, { maxItems: 500 });

/** The note with which a person accepts the packet's warnings, for the packet previewed (its SHA-256). */
export const AcceptedWarnings = Type.Object(
  {
    note: Text({ minLength: 1, maxLength: 1000 }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  },
  { additionalProperties: false },
);
export type AcceptedWarnings = Static<typeof AcceptedWarnings>;
