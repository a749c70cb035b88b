import type { ColumnType, Generated } from 'kysely';

/** Row types as PostgreSQL stores them; repositories map them to domain objects. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface CategoriesTable {
  id: Generated<string>;
  slug: string;
  name_en: string;
  name_tr: string;
  description_en: Generated<string>;
  description_tr: Generated<string>;
  color: Generated<string>;
  icon: Generated<string>;
  is_active: Generated<boolean>;
  sort_order: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CoursesTable {
  id: Generated<string>;
  title: string;
  description: string;
  category: string;
  difficulty_level: Generated<string>;
  language: Generated<string>;
  price_minor: Generated<number>;
  currency: Generated<string>;
  duration_minutes: Generated<number>;
  cover_image_url: string | null;
  pdf_path: string | null;
  instructor_name: string;
  instructor_bio: Generated<string>;
  tags: Generated<string[]>;
  is_featured: Generated<boolean>;
  is_active: Generated<boolean>;
  search_text: ColumnType<string, never, never>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PurchasesTable {
  id: Generated<string>;
  user_id: string | null;
  course_id: string;
  email: string;
  full_name: Generated<string>;
  language: Generated<string>;
  status: Generated<'pending' | 'completed' | 'failed' | 'expired' | 'refunded' | 'disputed'>;
  provider: 'free' | 'stripe' | 'demo';
  payment_id: string | null;
  payment_intent_id: string | null;
  download_token: string | null;
  amount_minor: number;
  currency: string;
  download_count: Generated<number>;
  last_download_at: Date | null;
  completed_at: Date | null;
  refund_requested_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactMessagesTable {
  id: Generated<string>;
  name: string;
  email: string;
  subject: string;
  message: string;
  language: string;
  created_at: Timestamp;
}

export interface MailOutboxTable {
  id: Generated<string>;
  recipient: string;
  subject: string;
  html: string;
  text: string;
  language: string;
  kind: string;
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  locked_until: Date | null;
  last_error: string | null;
  delivered_via: string | null;
  sent_at: Date | null;
  created_at: Timestamp;
}

export interface UsersTable {
  id: Generated<string>;
  full_name: string;
  email: string;
  email_verified: boolean;
  image: string | null;
  language: Generated<string>;
  role: Generated<'user' | 'admin'>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<string>;
  expires_at: Date;
  token: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  user_id: string;
}

export interface VerificationsTable {
  id: Generated<string>;
  identifier: string;
  value: string;
  expires_at: Date;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SignInFailuresTable {
  email: string;
  created_at: Timestamp;
}

export interface PaymentEventsTable {
  event_id: string;
  type: string;
  purchase_id: string | null;
  received_at: Timestamp;
}

export interface BlogPostsTable {
  id: Generated<string>;
  slug: string;
  language: string;
  translation_key: string | null;
  title: string;
  excerpt: string;
  content: string;
  author_name: string;
  cover_image_url: string;
  tags: Generated<string[]>;
  is_published: Generated<boolean>;
  seo_title: string | null;
  meta_description: string | null;
  tldr: string | null;
  cta_text: string | null;
  cta_link: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ClientLogsTable {
  id: Generated<string>;
  level: 'error' | 'warn' | 'info' | 'debug';
  message: string;
  data: ColumnType<unknown, string | null | undefined, string | null>;
  stack: string | null;
  url: string | null;
  user_agent: string | null;
  user_id: string | null;
  client_address: string;
  reported_at: Date | null;
  created_at: Timestamp;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: Timestamp;
  checksum: string | null;
}

export interface Database {
  categories: CategoriesTable;
  courses: CoursesTable;
  purchases: PurchasesTable;
  contact_messages: ContactMessagesTable;
  mail_outbox: MailOutboxTable;
  users: UsersTable;
  sessions: SessionsTable;
  verifications: VerificationsTable;
  sign_in_failures: SignInFailuresTable;
  payment_events: PaymentEventsTable;
  blog_posts: BlogPostsTable;
  client_logs: ClientLogsTable;
  schema_migrations: SchemaMigrationsTable;
}
