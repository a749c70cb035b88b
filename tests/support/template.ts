/** The migrated database every test file clones. */
export const TEMPLATE_DATABASE = 'shop_test_template';

/**
 * The demo catalogue's stored files (covers, course PDFs, blog images), written once per run by the real
 * seed command; every test file's storage folder starts as a copy. Each shop a test starts seeds its
 * database and finds the files there: rendering the demo PDFs took a second of CPU per shop started.
 */
export const TEMPLATE_DATA_DIR = '.data/test-files';
