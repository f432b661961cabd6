import type { BuildOptions } from 'esbuild';

/** The options `npm run build` bundles the CLI with (scripts/build-dist.mjs). */
export function distBuildOptions(outdir: string): BuildOptions;
