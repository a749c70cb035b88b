import { atom } from 'nanostores';

/** The signed-in buyer's courses (course id → purchase id), for "You own this" on pages cached for everyone. */
export interface OwnedCourse {
  courseId: string;
  purchaseId: string;
}

export const $ownedCourses = atom<OwnedCourse[]>([]);

export function ownedPurchaseOf(owned: readonly OwnedCourse[], courseId: string): string | undefined {
  return owned.find((course) => course.courseId === courseId)?.purchaseId;
}

export function downloadPath(purchaseId: string): string {
  return `/api/account/purchases/${purchaseId}/download`;
}
