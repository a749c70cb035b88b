import { z } from '../zod.ts';

/** Admin → Analytics: the periods a report covers and how much of it is shown. */
export const ANALYTICS_PERIODS = ['1month', '3months', '6months', '1year'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriod = '3months';
/** Months each period covers, the current month included. */
export const PERIOD_MONTHS: Record<AnalyticsPeriod, number> = { '1month': 1, '3months': 3, '6months': 6, '1year': 12 };
export const PeriodSchema = z.enum(ANALYTICS_PERIODS).catch(DEFAULT_ANALYTICS_PERIOD);

export const TOP_COURSES_COMPUTED = 10;
export const TOP_COURSES_SHOWN = 5;
export const RECENT_TRANSACTIONS = 10;
export const RECENT_SALES_SHOWN = 5;
