import { createHash } from 'node:crypto';

/** A stable UUID per demo course key, so links (and blog calls to action) survive a reset. */
export function demoCourseId(key: string): string {
  const hex = createHash('sha256').update(`demo-course:${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
