// The allowed range of every numeric retry setting, defined once. The settings schema
// (src/shared/settings.ts) refuses a value outside its range, and the decision table
// (decision-table.ts) clamps to the same numbers, so a value the settings pane accepts is exactly
// the value the table uses. See docs/retry-policy.md.

export interface SettingRange {
  min: number;
  max: number;
  /** Shown in refusal messages, e.g. "must be at most 600000 ms". */
  unit?: 'ms' | 'minutes';
}

/** The numbers of the `retry` settings group. */
export const RETRY_SETTING_RANGES = {
  /** Retries (not attempts) for the rows that inherit; 9 keeps inherited rows at 10 attempts at most. */
  maxRetries: { min: 0, max: 9 },
  baseDelayMs: { min: 1, max: 600_000, unit: 'ms' },
  maxDelayMs: { min: 1, max: 3_600_000, unit: 'ms' },
  jitterMaxMs: { min: 0, max: 60_000, unit: 'ms' },
  timeoutMs: { min: 50, max: 600_000, unit: 'ms' },
  /** Keep-alives without words end a request after this long (docs/retry-policy.md, "Liveness"). */
  keepAliveLimitMinutes: { min: 1, max: 120, unit: 'minutes' },
} as const satisfies Record<string, SettingRange>;

/** A local server's first-token wait (`provider.localServers.<base URL>.firstTokenWaitMinutes`). */
export const FIRST_TOKEN_WAIT_RANGE = { min: 1, max: 240, unit: 'minutes' } as const satisfies SettingRange;

/** The numbers of one decision-table row override (`retry.policy.<category>`). */
export const ROW_OVERRIDE_RANGES = {
  /** Attempts including the first try: the hard ceiling of every row, whatever the settings say. */
  maxAttempts: { min: 1, max: 10 },
  /** The fixed wait of a linear row. */
  delayMs: { min: 0, max: 600_000, unit: 'ms' },
} as const satisfies Record<string, SettingRange>;

/** A whole number within the range; anything else (NaN, a string, missing) becomes the fallback. */
export function clampToRange(value: unknown, range: SettingRange, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(range.max, Math.max(range.min, Math.round(value)));
}
