/** The migrated database every test file clones. */
export const TEMPLATE_DATABASE = 'shop_test_template';
