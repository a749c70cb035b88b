/** Facts about the shop shown in several places. */
export const SUPPORT_EMAIL = 'support@microcourses.example';
