/** Admin → Analytics → Funnel: a course's week from one source. Client-safe. */
export interface FunnelRow {
  courseId: string;
  title: string;
  /** The Monday (UTC) the week starts on, YYYY-MM-DD. */
  week: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  referrerHost: string;
  views: number;
  checkouts: number;
  paid: number;
}

export interface FunnelWeek {
  week: string;
  views: number;
  checkouts: number;
  paid: number;
}

/** Rows the page shows (the CSV has them all). */
export const FUNNEL_ROWS_SHOWN = 200;

/** A rate as a percentage with one decimal, or null when there is nothing to divide by. */
export function rate(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : null;
}
