// The categories whose decision-table row retries, read from the rows: the settings schema offers
// a per-row override for these only, and the table checks an override against them. Apart from
// error-category.ts so that the category list and the rows (decision-rows.ts) import each other's
// types only; this file is where their values meet.
import { ERROR_CATEGORIES, type RetryableCategory } from '../error-category';
import { DECISION_ROWS } from './decision-rows';

/** Categories whose decision-table row retries, in ERROR_CATEGORIES' order; only these accept per-row overrides. */
export const RETRYABLE_CATEGORIES: readonly RetryableCategory[] = ERROR_CATEGORIES.filter(
  (category): category is RetryableCategory => DECISION_ROWS[category].action === 'retry',
);
