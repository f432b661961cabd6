import type { BuildOptions } from 'esbuild';

/** The options `npm run build` bundles the CLI with (scripts/build-dist.mjs). */
export function distBuildOptions(outdir: string): BuildOptions;

/** Every build `npm run build` runs, in order (the CLI, then `run-job`'s own bundle). */
export function distBuilds(outdir: string): BuildOptions[];
