import { env } from '../env.ts';
import { seedDemoData, isCatalogueEmpty } from '../seed/seed.ts';
import { createDb } from './database.ts';
import { migrate } from './migrate.ts';

/** Start-up work on the database: migrations always, demo data when the catalogue is empty. */
export async function prepareDatabase(url: string, log: (line: string) => void = console.log): Promise<void> {
  const database = createDb(url, 2);
  try {
    const applied = await migrate(database);
    if (applied.length > 0) log(`Applied migrations: ${applied.join(', ')}`);
    if (await isCatalogueEmpty(database)) {
      const seeded = await seedDemoData(database, { withCourses: env().NODE_ENV !== 'production' });
      log(`Seeded ${seeded.categories} categories and ${seeded.courses} demo courses.`);
    }
  } finally {
    await database.destroy();
  }
}
