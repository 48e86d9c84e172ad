// Which of a provider's catalogued models is newest, and which one a provider starts on (issue 30:
// by recency and capability, not by name order). pi-ai's catalogue carries no release dates, so
// recency is read from the ids: the version numbers (claude-opus-4-7 → 4.7, gpt-5.5 → 5.5) and a
// snapshot date where the id has one. Pure; providers.ts applies it to pi-ai's real catalogue.

/** What the ranking reads of a catalogued model (pi-ai's Model has these fields). */
export interface RankedModel {
  id: string;
  reasoning: boolean;
  input: readonly ('text' | 'image')[];
  cost: { input: number };
}

export interface ModelVersion {
  /** Up to two version numbers, major first. */
  version: number[];
  /** A snapshot date, YYYYMMDD or YYYYMM; null for an alias (it follows the newest snapshot). */
  date: number | null;
}

/** Words of a variant rather than the model itself: a start model is none of these. */
const VARIANT =
  /(^|[-_.:/])(preview|exp|experimental|latest|deep-research|codex|audio|live|customtools|chat|free|fast|search|thinking|instruct|realtime|tts|image|vision|online|beta)([-_.:]|$)/;
/** Cheaper tiers: the start model is the provider's main line when there is one. */
const SMALL_TIER = /(^|[-_.:/])(lite|nano|mini|small|tiny|micro|\d+b)([-_.:]|$)/;
/** The premium tier of a line: a start model is the plain one beside it when there is one. */
const PREMIUM_TIER = /(^|[-_.:/])(pro|max|ultra|premier)([-_.:]|$)/;
const UNSTABLE = /(^|[-_.:/])(preview|exp|experimental|beta)([-_.:]|$)/;

export function modelVersion(id: string): ModelVersion {
  const tokens = (id.split('/').pop() ?? id).split(/[-_.:]/);
  const version: number[] = [];
  let date: number | null = null;
  for (const [i, token] of tokens.entries()) {
    if (/^\d{8}$/.test(token)) {
      date = Number(token);
      break;
    }
    const year = /^20[2-3]\d$/.test(token) && /^\d{2}$/.test(tokens[i - 1] ?? '');
    if (year) {
      // "…-09-2025": a month and a year.
      date = Number(token) * 100 + Number(tokens[i - 1]);
      break;
    }
    const number = /^[a-z]?(\d{1,2})[a-z]*$/.exec(token);
    if (number && version.length < 2) version.push(Number(number[1]));
  }
  return { version, date };
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** Newest first: a higher version, then an alias before its snapshots, a newer snapshot, stable before preview. */
export function newestFirst<T extends { id: string }>(models: readonly T[]): T[] {
  const keyed = models.map((model) => ({ model, ...modelVersion(model.id), unstable: UNSTABLE.test(model.id) }));
  keyed.sort(
    (a, b) =>
      compareVersions(b.version, a.version) ||
      Number(a.unstable) - Number(b.unstable) ||
      (b.date ?? Number.MAX_SAFE_INTEGER) - (a.date ?? Number.MAX_SAFE_INTEGER) ||
      a.model.id.localeCompare(b.model.id),
  );
  return keyed.map((k) => k.model);
}

/**
 * The model a provider starts on: of the priced models that think and read images and are not a
 * variant (preview, codex, audio…), the newest main-line one — the plain model before its premium
 * tier, and a small tier only when nothing else qualifies. Null for an empty catalogue; the newest
 * model when none qualifies.
 */
export function pickDefaultModel(models: readonly RankedModel[]): string | null {
  const capable = models.filter(
    (m) => m.cost.input > 0 && m.reasoning && m.input.includes('image') && !VARIANT.test(m.id),
  );
  const main = capable.filter((m) => !SMALL_TIER.test(m.id));
  const pool = main.length > 0 ? main : capable;
  const ranked = newestFirst(pool);
  const newest = ranked[0];
  if (!newest) return newestFirst(models)[0]?.id ?? null;
  const sameVersion = ranked.filter(
    (m) => compareVersions(modelVersion(m.id).version, modelVersion(newest.id).version) === 0,
  );
  return (sameVersion.find((m) => !PREMIUM_TIER.test(m.id)) ?? newest).id;
}
