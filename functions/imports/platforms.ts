import { EmailSchema } from '../../src/lib/validation.ts';
import type { Language } from '../../src/i18n/languages.ts';
import type { ImportPlatform, RowProblemCode, SkipReason } from '../../src/lib/admin/import.schema.ts';

/**
 * The columns of each platform's export, by the names it gives them, compared without case, accents
 * or punctuation (`Purchase Email`, `purchase_email`). Where a platform's documentation gives a
 * field several names over the years, each is listed. README ("Your audience") lists what each
 * export has and where that was read.
 */
type Names = readonly string[];

interface PlatformColumns {
  platform: ImportPlatform;
  /** Every group must be present (any name of it) for a header to be this platform's. */
  signature: Names[];
  orderId: Names;
  email: Names;
  name: Names;
  productId: Names;
  productName: Names;
  date: Names;
  country: Names;
  /** Gumroad: a gift belongs to its recipient. */
  giftee?: Names;
  /** Payhip: a column saying the row was a gift, whose consent is nobody's to give. */
  gift?: Names;
  /** The column saying the buyer agreed to hear from the seller, and which values mean yes. */
  consent?: { column: Names; agreed: (value: string) => boolean };
  /** A summary row, not a sale (Gumroad ends its file with `Totals`). */
  summary?: (fields: string[]) => boolean;
  skip: (value: (names: Names) => string) => SkipReason | null;
}

const yes = (value: string) => /^(1|true|yes|y)$/i.test(value.trim());
const no = (value: string) => /^(0|false|no|n)$/i.test(value.trim());

const PLATFORMS: PlatformColumns[] = [
  {
    // Gumroad's sales export (Sales or Customers → Export), as its open source writes it
    // (antiwork/gumroad, app/services/exports/purchase_export_service.rb).
    platform: 'gumroad',
    signature: [['purchase id'], ['item name'], ['purchase email']],
    orderId: ['purchase id'],
    email: ['purchase email', 'buyer email'],
    name: ['buyer name'],
    productId: ['product id'],
    productName: ['item name'],
    date: ['purchase time utc timezone', 'purchase date'],
    country: ['country'],
    giftee: ['giftee email'],
    // "Do not contact?" is 1 when the buyer unticked the seller's updates at checkout.
    consent: { column: ['do not contact'], agreed: no },
    summary: (fields) => fields[0]?.trim() === 'Totals',
    skip: (value) => {
      if (yes(value(['fully refunded']))) return 'refunded';
      if (yes(value(['access revoked']))) return 'revoked';
      if (yes(value(['disputed'])) && !yes(value(['dispute won']))) return 'disputed';
      // A pre-order is authorised, not charged, until the product is released.
      if (yes(value(['pre order authorization']))) return 'unpaid';
      return null;
    },
  },
  {
    // Lemon Squeezy's orders export: the order object its API reference documents (identifier,
    // order_number, user_name, user_email, status, refunded, created_at, test_mode) and its first
    // order item (product_id, product_name, variant_name). The CSV's own header line is not published.
    platform: 'lemon-squeezy',
    signature: [['identifier', 'order number'], ['user email']],
    orderId: ['identifier', 'order number'],
    email: ['user email'],
    name: ['user name'],
    productId: ['product id'],
    productName: ['product name', 'product'],
    date: ['created at'],
    country: ['country'],
    skip: (value) => {
      const status = value(['status']).trim().toLowerCase();
      if (status === 'refunded' || yes(value(['refunded']))) return 'refunded';
      // `paid` is the one documented status of money taken (the others: pending, failed); a test-mode
      // order took none.
      if ((status && status !== 'paid') || yes(value(['test mode']))) return 'unpaid';
      return null;
    },
  },
  {
    // Payhip's transactions export: the fields Payhip documents for a sale (its webhooks page:
    // transaction `id`, `email`, `date` in Unix seconds, `items[]` with `product_id`, `product_key`
    // and `product_name`, `vat_country`, `unconsented_from_emails`, `is_gift`), one row per item.
    // Payhip documents no buyer's name; a `Name` column is read when there is one.
    platform: 'payhip',
    signature: [['transaction id'], ['product name', 'product']],
    orderId: ['transaction id'],
    email: ['email', 'buyer email', 'customer email'],
    name: ['name', 'buyer name', 'customer name'],
    productId: ['product key', 'product id'],
    productName: ['product name', 'product'],
    date: ['date', 'transaction date'],
    country: ['vat country', 'country'],
    consent: { column: ['unconsented from emails'], agreed: no },
    // Payhip does not say whose address a gift's row carries: the access goes to it, the consent does not.
    gift: ['is gift'],
    skip: (value) => (yes(value(['refunded'])) || value(['status']).trim().toLowerCase() === 'refunded' ? 'refunded' : null),
  },
];

/** `Purchase Email?` → `purchase email`; `Türkiye` → `turkiye`. */
export function simplified(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** One sale of the export, checked: what the import grants from. */
export interface ImportRow {
  line: number;
  orderId: string;
  /** Lower-cased, as accounts keep it. */
  email: string;
  name: string;
  productKey: string;
  productName: string;
  orderedAt: Date | null;
  language: Language;
  /** The export says this buyer agreed to hear from the seller. */
  consent: boolean;
}

export type ReadRow =
  | { kind: 'row'; row: ImportRow }
  | { kind: 'skipped'; reason: SkipReason }
  | { kind: 'problem'; code: RowProblemCode }
  | { kind: 'summary' };

export interface ExportReader {
  platform: ImportPlatform;
  /** The export's own name of its consent column, where it has one. */
  consentColumn: string | null;
  read: (line: number, fields: string[]) => ReadRow;
}

/** The reader for an export whose first line is `header`, or undefined when no platform's columns are there. */
export function readerFor(header: string[]): ExportReader | undefined {
  const index = new Map<string, number>();
  header.forEach((name, position) => {
    const key = simplified(name);
    if (!index.has(key)) index.set(key, position);
  });
  const find = (names: Names) => names.map((name) => index.get(name)).find((position) => position !== undefined);
  const columns = PLATFORMS.find((platform) => platform.signature.every((names) => find(names) !== undefined));
  if (!columns) return undefined;
  const consentColumn = columns.consent ? find(columns.consent.column) : undefined;
  return {
    platform: columns.platform,
    consentColumn: consentColumn === undefined ? null : header[consentColumn]!.trim(),
    read: (line, fields) => {
      if (columns.summary?.(fields)) return { kind: 'summary' };
      if (fields.length !== header.length) return { kind: 'problem', code: 'columns' };
      const value = (names: Names) => {
        const position = find(names);
        return position === undefined ? '' : fields[position]!.trim();
      };
      const skipped = columns.skip(value);
      if (skipped) return { kind: 'skipped', reason: skipped };
      return checkedRow(line, columns, value, consentColumn === undefined ? undefined : fields[consentColumn]!);
    },
  };
}

function checkedRow(
  line: number,
  columns: PlatformColumns,
  value: (names: Names) => string,
  consent: string | undefined,
): ReadRow {
  const giftee = columns.giftee ? value(columns.giftee) : '';
  const address = giftee || value(columns.email);
  if (!address) return { kind: 'problem', code: 'email_missing' };
  const email = EmailSchema.safeParse(address);
  if (!email.success) return { kind: 'problem', code: 'email_invalid' };
  const orderId = value(columns.orderId);
  if (!orderId) return { kind: 'problem', code: 'order_missing' };
  if (orderId.length > MAX_ORDER_ID_CHARS) return { kind: 'problem', code: 'order_too_long' };
  const productId = value(columns.productId);
  const productName = value(columns.productName);
  if (!productId && !productName) return { kind: 'problem', code: 'product_missing' };
  return {
    kind: 'row',
    row: {
      line,
      orderId,
      email: email.data.toLowerCase(),
      // A gift's buyer is not its owner: the recipient's name is not in the export.
      name: giftee ? '' : value(columns.name).slice(0, MAX_NAME_CHARS),
      productKey: (productId || productName).slice(0, MAX_PRODUCT_CHARS),
      productName: (productName || productId).slice(0, MAX_PRODUCT_CHARS),
      orderedAt: dateOf(value(columns.date)),
      language: TURKIYE.has(simplified(value(columns.country))) ? 'tr' : 'en',
      // The giver's choice is not the recipient's consent.
      consent:
        !giftee && !(columns.gift && yes(value(columns.gift))) && consent !== undefined && columns.consent!.agreed(consent),
    },
  };
}

const MAX_ORDER_ID_CHARS = 100;
const MAX_NAME_CHARS = 200;
const MAX_PRODUCT_CHARS = 300;
/** Buyers in Türkiye get their mail in Turkish; every other buyer in English. */
const TURKIYE = new Set(['turkey', 'turkiye', 'tr', 'tur']);

/** An ISO date, `YYYY-MM-DD HH:mm:ss UTC`, or Unix seconds (Payhip); anything else: unknown. */
function dateOf(text: string): Date | null {
  if (!text) return null;
  const date = /^\d{9,11}$/.test(text) ? new Date(Number(text) * 1000) : new Date(text.replace(/ UTC$/, 'Z').replace(' ', 'T'));
  return Number.isNaN(date.getTime()) || date.getTime() > Date.now() ? null : date;
}
