/**
 * The database's row types, generated from the migrations (`npm run db:types`; `npm run check`
 * verifies them). The names the code uses for them live here.
 */
export type {
  BlogPosts as BlogPostsTable,
  Broadcasts as BroadcastsTable,
  Categories as CategoriesTable,
  Courses as CoursesTable,
  DB as Database,
  Purchases as PurchasesTable,
} from './schema.generated.ts';
