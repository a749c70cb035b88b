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
  payment_id: string;
  amount_minor: number;
  currency: string;
  download_count: Generated<number>;
  last_download_at: Date | null;
  completed_at: Date | null;
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

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: Timestamp;
}

export interface Database {
  categories: CategoriesTable;
  courses: CoursesTable;
  purchases: PurchasesTable;
  contact_messages: ContactMessagesTable;
  schema_migrations: SchemaMigrationsTable;
}
