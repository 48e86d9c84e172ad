// `npm run bench` (after `npm run build`): every benchmark, each figure printed with its baseline
// from the same run and the ratio. `--quick` runs small sizes (CI). The large history is built
// once into the cache folder (bench/lib.ts) and reused; `--only NAME` runs one section. See
// bench/README.md.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { backoffBench } from './backoff';
import { failureBannerBench } from './failure-banner';
import { firstPromptBench } from './first-prompt';
import { historyScaleBench } from './history-scale';
import { CLI, PI_CLI, QUICK, REPO } from './lib';
import { memoryBench } from './memory';
import { startupBench } from './startup';

if (!existsSync(CLI)) {
  console.error(`bench: ${CLI} is missing; run \`npm run build\` first`);
  process.exit(1);
}
console.log(
  `Resolute benchmarks${QUICK ? ' (quick)' : ''}; pi baseline: ${PI_CLI ?? 'not installed (see bench/README.md)'}`,
);
const sections: [string, () => Promise<void>][] = [
  ['start-up', startupBench],
  ['first prompt', firstPromptBench],
  ['backoff', backoffBench],
  ['failure banner', failureBannerBench],
  ['history at scale', historyScaleBench],
  ['memory', memoryBench],
];
// `--only backoff` (a section's name, or a word of it) runs just that section.
const only = process.argv[process.argv.indexOf('--only') + 1];
const chosen = process.argv.includes('--only') ? sections.filter(([name]) => name.includes(only)) : sections;
for (const [name, run] of chosen) {
  console.log(`\n## ${name}`);
  await run();
}
if (chosen !== sections) process.exit(0);
// The older scripts print their own figures and ratios.
for (const [script, size] of [
  ['session-overhead.ts', QUICK ? '50' : '200'],
  ['history-append.ts', QUICK ? '500' : '2000'],
  ['sandbox-startup.ts', QUICK ? '10' : '40'],
  ['tools-search.ts', QUICK ? '5000' : '50000'],
  ['chat-scroll.ts', QUICK ? '500' : '4950'],
  ['markdown-stream.ts', ''],
  ['first-window.ts', QUICK ? '3' : '5'],
]) {
  console.log(`\n## ${script}`);
  spawnSync(process.execPath, ['--import', 'tsx', join('bench', script), size], { cwd: REPO, stdio: 'inherit' });
}
