import { $ownedCourses, downloadPath, ownedPurchaseOf } from '../stores/owned.ts';

/**
 * "You own this · Download" on pages cached for everyone (course page, home page cards): each course's
 * buy link (`data-buy-for`) and owner notice (`data-owned-for`) follow the signed-in buyer's courses.
 * The catalogue island renders the same from the store with useStore.
 */
export function showOwnedBadges(): void {
  $ownedCourses.subscribe((owned) => {
    for (const notice of document.querySelectorAll<HTMLElement>('[data-owned-for]')) {
      const purchaseId = ownedPurchaseOf(owned, notice.dataset.ownedFor ?? '');
      notice.hidden = !purchaseId;
      const link = notice.querySelector<HTMLAnchorElement>('a[data-owned-download]');
      if (link && purchaseId) link.href = downloadPath(purchaseId);
    }
    for (const buy of document.querySelectorAll<HTMLElement>('[data-buy-for]')) {
      buy.hidden = Boolean(ownedPurchaseOf(owned, buy.dataset.buyFor ?? ''));
    }
  });
}
