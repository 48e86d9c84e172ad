// What one attempt cost (docs/retry-policy.md, "What failures cost"): its token usage times the
// model's list price, or null when the price is unknown (the simulator, a local server, a model id
// the registry does not list). Pi-ai's own usage.cost is not trusted for this: it is computed with
// whatever price the model object carries, which is zero — or a sibling's — for unknown models.
// TurnRecorder calls it as each turn is stored.
import type { ChatUsage } from '../../../shared/messages';

/** USD per million tokens, as pi-ai's model registry gives them (`Model.cost`). */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const PER_TOKEN = 1 / 1_000_000;

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
const rate = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;

/** The cost of one attempt in USD, or null when the price is unknown or not a price at all. */
export function attemptCostUsd(usage: ChatUsage | null | undefined, price: ModelPrice | null): number | null {
  if (!price) return null;
  const rates = [rate(price.input), rate(price.output), rate(price.cacheRead), rate(price.cacheWrite)];
  if (rates.some((r) => r === null)) return null;
  const [input, output, cacheRead, cacheWrite] = rates as number[];
  if (!usage) return 0;
  return (
    (count(usage.input) * input +
      count(usage.output) * output +
      count(usage.cacheRead) * cacheRead +
      count(usage.cacheWrite) * cacheWrite) *
    PER_TOKEN
  );
}
