import { z } from '../zod.ts';
import { uuidSchema } from '../uuid.schema.ts';
import type { MessageKey } from '../../i18n/i18n.ts';

/** The platforms whose exports Admin → Import reads (functions/imports/platforms.ts knows their columns). */
export const IMPORT_PLATFORMS = ['gumroad', 'payhip', 'lemon-squeezy'] as const;
export type ImportPlatform = (typeof IMPORT_PLATFORMS)[number];

export const PLATFORM_LABELS = {
  gumroad: 'Gumroad',
  payhip: 'Payhip',
  'lemon-squeezy': 'Lemon Squeezy',
} as const satisfies Record<ImportPlatform, string>;

/** An export as large as a seller with a six-figure sales history has; the file is read as it arrives. */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;
/** Distinct products one file may name (each gets a row in the mapping form). */
export const MAX_IMPORT_PRODUCTS = 200;
/** Problems kept and shown per file; the count says how many there were in all. */
export const MAX_SHOWN_PROBLEMS = 100;

/** What can be wrong with one row, said at its line. */
export const ROW_PROBLEMS = {
  columns: 'admin.import.problem.columns',
  email_missing: 'admin.import.problem.emailMissing',
  email_invalid: 'admin.import.problem.emailInvalid',
  order_missing: 'admin.import.problem.orderMissing',
  order_too_long: 'admin.import.problem.orderTooLong',
  product_missing: 'admin.import.problem.productMissing',
  unclosed_quote: 'admin.import.problem.unclosedQuote',
  record_too_long: 'admin.import.problem.recordTooLong',
} as const satisfies Record<string, MessageKey>;
export type RowProblemCode = keyof typeof ROW_PROBLEMS;

export interface RowProblem {
  line: number;
  code: RowProblemCode;
}

/** Rows that are well formed but grant nothing: the sale was undone on the platform. */
export const SKIP_REASONS = ['refunded', 'disputed', 'revoked', 'unpaid'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface ImportedProduct {
  /** The platform's product id, or its name where the export has no id. */
  key: string;
  name: string;
  rows: number;
  /** The course whose title is the product's name, offered as the mapping. */
  suggestedCourseId: string | null;
}

export interface ImportOutcome {
  purchases: number;
  /** Rows whose purchase was there already: imported before, or the buyer owns the course. */
  alreadyThere: number;
  buyers: number;
  newAccounts: number;
  consents: number;
  mails: number;
}

/** An uploaded export as the admin sees it: its dry run, and once imported what the import did. */
export interface ImportView {
  id: string;
  platform: ImportPlatform;
  fileName: string;
  createdAt: string;
  rows: number;
  importable: number;
  skipped: Record<SkipReason, number>;
  products: ImportedProduct[];
  buyers: { total: number; new: number; existing: number };
  /** Buyers whose export says they agreed to hear from the seller (imported as consent). */
  consents: number;
  /** Whether this platform's export carries marketing consent at all. */
  carriesConsent: boolean;
  problems: RowProblem[];
  problemCount: number;
  importedAt: string | null;
  outcome: ImportOutcome | null;
}

/** The mapping form: a course (or none) per product, in the dry run's order, and the optional mail. */
export const ImportRequestSchema = z.object({
  courses: z.array(z.union([uuidSchema(), z.literal('')])).max(MAX_IMPORT_PRODUCTS),
  sendMail: z.boolean().default(false),
});
export type ImportRequest = z.infer<typeof ImportRequestSchema>;

/** The mapping form as the browser posts it without JavaScript: `product-0`, `product-1`… and `sendMail=on`. */
export function importRequestFromForm(fields: Record<string, string>, products: number): unknown {
  return {
    courses: Array.from({ length: Math.min(products, MAX_IMPORT_PRODUCTS) }, (_, index) => fields[`product-${index}`] ?? ''),
    sendMail: fields.sendMail === 'on',
  };
}
